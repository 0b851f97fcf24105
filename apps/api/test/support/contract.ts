import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenApiDocumentStore } from '@plantstore/adapters-http';
import { Ajv2020 } from 'ajv/dist/2020.js';

interface RecordedResponse {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };

/** What recordResponses keeps: the document, once read, and every response. */
export interface RecordedResponses {
  /** Reads the served document, built from the app's routes on its first request: call it while the app runs. */
  readDocument(): Promise<void>;
  /** Checks every response recorded against the document read. */
  check(): void;
}

/**
 * Keeps every response the app sends so that, when the suite ends, each can be checked
 * against the served OpenAPI document: the document cannot drift from the code unnoticed.
 * The document is read only then: an app is not made to build it (and load @nestjs/swagger)
 * before its tests ask for it, as a server is not.
 */
export function recordResponses(app: NestFastifyApplication): RecordedResponses {
  let contract: Contract | undefined;
  const recorded: RecordedResponse[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (request, reply, payload, done) => {
      recorded.push({
        method: request.method.toLowerCase(),
        path: request.url.split('?', 1)[0] ?? '/',
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        body: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
      });
      done(null, payload);
    });
  return {
    async readDocument() {
      contract = new Contract(await app.get(OpenApiDocumentStore).document());
    },
    check() {
      if (contract === undefined) throw new Error('the responses are checked against a document not read yet');
      for (const response of recorded) contract.check(response);
    },
  };
}

type Document = { paths: object; components?: object };

/** The served document as a checker of recorded responses. */
class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ReturnType<Ajv2020['compile']>>();

  constructor(private readonly document: Document) {
    this.ajv.addSchema({ $id: 'openapi', components: document.components });
    // int64 and int32 are formats ajv does not know; the value range is asserted by the e2e tests themselves.
    this.ajv.addFormat('int64', true);
    this.ajv.addFormat('int32', true);
  }

  check(response: RecordedResponse): void {
    const where = `${response.method.toUpperCase()} ${response.path} → ${response.status}`;
    const operation = this.operationAt(response.path)?.[response.method];
    if (operation === undefined) {
      // Not an operation of the document (unknown route, wrong method, docs asset): a failure must be an Error.
      if (response.status >= 400) this.assertBody(where, response, { $ref: 'openapi#/components/schemas/Error' });
      return;
    }
    const documented = operation.responses[String(response.status)];
    if (documented === undefined) throw new Error(`${where}: status not listed in the OpenAPI document`);
    const contents = Object.entries(documented.content ?? {});
    if (contents.length === 0) return;
    // An operation may answer several media types (GET /plants/changes: JSON or a stream): the one sent must be among them.
    const [mediaType, content] = contents.find(([type]) => response.contentType.startsWith(type)) ?? [];
    if (mediaType === undefined || content === undefined)
      throw new Error(
        `${where}: content type ${response.contentType}, documented ${contents.map(([type]) => type).join(', ')}`,
      );
    if (mediaType === 'application/json') this.assertBody(where, response, rewriteRefs(content.schema));
  }

  /** The document's path item for a concrete path: `/plants/42` is `/plants/{id}`. */
  private operationAt(path: string): Record<string, Operation> | undefined {
    const paths = this.document.paths as Record<string, Record<string, Operation>>;
    if (paths[path] !== undefined) return paths[path];
    const segments = path.split('/');
    const template = Object.keys(paths).find((candidate) => {
      const parts = candidate.split('/');
      return (
        parts.length === segments.length &&
        parts.every((part, i) => part === segments[i] || (/^\{[^}]+\}$/.test(part) && segments[i] !== ''))
      );
    });
    return template === undefined ? undefined : paths[template];
  }

  private assertBody(where: string, response: RecordedResponse, schema: object): void {
    if (!response.contentType.startsWith('application/json'))
      throw new Error(`${where}: ${response.contentType} where JSON was documented`);
    const key = JSON.stringify(schema);
    const validate = this.validators.get(key) ?? this.ajv.compile(schema);
    this.validators.set(key, validate);
    const body: unknown = JSON.parse(response.body);
    if (!validate(body))
      throw new Error(
        `${where}: body ${response.body.slice(0, 200)} does not match: ${this.ajv.errorsText(validate.errors)}`,
      );
  }
}

function rewriteRefs(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
}
