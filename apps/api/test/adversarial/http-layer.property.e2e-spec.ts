import fc from 'fast-check';
import { testEngines, type TestEngine } from '../support/engines.js';
import { useTestApp } from '../support/test-app.js';
import { hostileText, idLiteral } from './support/arbitraries.js';
import { expectErrorContract, JSON_UTF8 } from './support/contract.js';
import { expectedOutcome, NAME_MAX, TAG_MAX, textProblems } from './support/oracle.js';
import { exchange, type WireResponse } from '../support/raw-exchange.js';

/**
 * The HTTP layer under random requests: random JSON values and byte strings as bodies,
 * random Authorization and Content-Type headers, odd extra headers, either framing. Whatever
 * arrives: never a 5xx, a dropped connection or a hang; every non-2xx is the Error body; the
 * store changes only on a 200, and then exactly as a model of the store says.
 */
const BODY_LIMIT = 4_096;
const MIXED_RUNS = 250;
const BYTES_RUNS = 150;

type Prediction = { status: number; error?: number; message?: string } | 'unpredicted';

interface Auth {
  readonly header: string | undefined;
  /** What docs/http-api.md and docs/tokens.md say must happen, when they say it unambiguously. */
  readonly expect: 'authenticated' | 40101 | 40102 | 40301 | 'unpredicted';
}

interface Media {
  readonly values: readonly string[];
  readonly expect: 'json' | 41501 | 'unpredicted';
}

interface HttpCase {
  readonly auth: Auth;
  readonly media: Media;
  readonly path: string;
  readonly extraHeaders: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  readonly chunks: readonly number[] | undefined;
}

const GOOD_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'Application/Json; Charset="utf-8"',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'application/json; profile=plant',
];
const BAD_TYPES = [
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/jsonp',
  'application/json-seq',
  'json',
  '*/*',
];

/** Extra headers that must not change the outcome: odd but well-formed values. */
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 300,
});
const extraHeader = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      'X-Request-Id',
      'X-Forwarded-For',
      'Accept',
      'Accept-Encoding',
      'Cookie',
      'User-Agent',
      'Origin',
      'Referer',
      'X-Http-Method-Override',
    ),
    headerValue,
  ),
  fc.tuple(fc.stringMatching(/^X-[A-Za-z0-9!#$%&'*+.^_`|~-]{1,40}$/), headerValue),
);

function plantBody(): fc.Arbitrary<Buffer> {
  const jsonText = (s: string) => JSON.stringify(s);
  const id = fc.oneof(
    { weight: 4, arbitrary: idLiteral },
    // A small pool of ids spelled many ways, so retries (200) and conflicts (409) happen.
    { weight: 3, arbitrary: fc.constantFrom('7', '7.0', '70e-1', '0.7e1', '8', '8E0', '-9', '-90e-1') },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null') },
  );
  const name = fc.oneof(
    { weight: 3, arbitrary: hostileText.map(jsonText) },
    {
      weight: 3,
      arbitrary: hostileText.filter((text) => textProblems('name', text, NAME_MAX).length === 0).map(jsonText),
    },
    { weight: 3, arbitrary: fc.constantFrom('Fern', 'Aloe').map(jsonText) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null') },
  );
  const tag = fc.oneof(
    hostileText.map(jsonText),
    hostileText.filter((text) => textProblems('tag', text, TAG_MAX).length === 0).map(jsonText),
    fc.constantFrom('"herb"', 'null', '""', '5', '{}'),
  );
  const extra = fc.tuple(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'access_token', 'extra', 'ID', 'Name', 'toString'),
    fc.jsonValue({ maxDepth: 3 }),
  );
  return fc
    .record({
      id: fc.option(id, { nil: undefined, freq: 8 }),
      name: fc.option(name, { nil: undefined, freq: 8 }),
      tag: fc.option(tag, { nil: undefined, freq: 2 }),
      extras: fc.uniqueArray(extra, { maxLength: 3, selector: ([k]) => k }),
      padding: fc.oneof(
        { weight: 9, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 3_000, max: 6_000 }) },
      ),
      order: fc.nat(),
    })
    .map(({ id, name, tag, extras, padding, order }) => {
      const members = [
        ...(id === undefined ? [] : [`"id": ${id}`]),
        ...(name === undefined ? [] : [`"name": ${name}`]),
        ...(tag === undefined ? [] : [`"tag": ${tag}`]),
        ...extras.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`),
        ...(padding > 0 ? [`"padding": "${'p'.repeat(padding)}"`] : []),
      ];
      const rotated = members.map((_, i) => members[(i + order) % members.length]!);
      return Buffer.from(`{${rotated.join(', ')}}`, 'utf8');
    });
}

/** Bodies: NewPlant-shaped objects, any JSON value, a corrupted plant, raw bytes. */
const body: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: plantBody() },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((t) => Buffer.from(t, 'utf8')) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(plantBody(), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('replace', 'insert', 'delete'))
      .map(([b, at, byte, how]) => {
        const i = at % Math.max(1, b.length);
        if (how === 'replace') return Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i + 1)]);
        if (how === 'insert') return Buffer.concat([b.subarray(0, i), Buffer.from([byte]), b.subarray(i)]);
        return Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
      }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
);

function withChunking(b: Buffer, chunks: readonly number[] | undefined): Buffer {
  if (chunks === undefined) return b;
  const parts: Buffer[] = [];
  let offset = 0;
  for (const size of chunks) {
    if (offset >= b.length) break;
    const piece = b.subarray(offset, offset + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    offset += piece.length;
  }
  if (offset < b.length)
    parts.push(Buffer.from(`${(b.length - offset).toString(16)}\r\n`), b.subarray(offset), Buffer.from('\r\n'));
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

function sortById<T extends { id: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

function startsWithBom(b: Buffer): boolean {
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

function toBytes(c: HttpCase): Buffer {
  const lines = [`POST ${c.path} HTTP/1.1`, 'Host: 127.0.0.1'];
  if (c.auth.header !== undefined) lines.push(`Authorization: ${c.auth.header}`);
  for (const value of c.media.values) lines.push(`Content-Type: ${value}`);
  for (const [name, value] of c.extraHeaders) lines.push(`${name}: ${value}`);
  lines.push(
    c.chunks === undefined ? `Content-Length: ${c.body.length}` : 'Transfer-Encoding: chunked',
    'Connection: close',
  );
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), withChunking(c.body, c.chunks)]);
}

describe.each(testEngines().map((engine): [string, TestEngine] => [engine.name, engine]))(
  'the HTTP layer under random requests on %s (property-based)',
  (engineName, engine) => {
    const t = useTestApp(
      { BODY_LIMIT_BYTES: String(BODY_LIMIT), AUTH_FAILURE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' },
      engine,
    );
    let writer: string;
    let reader: string;
    let revoked: string;
    /** What the store must hold: exact id → the stored row. */
    const model = new Map<string, { id: string; name: string; tag: string | null }>();
    const seen = { mixed: 0, bytes: 0, statuses: new Map<number, number>() };

    beforeAll(async () => {
      writer = t.token;
      ({ token: reader } = await t.issueToken({ scopes: ['plants:read'] }));
      const gone = await t.issueToken();
      await t.revokeToken(gone.id);
      revoked = gone.token;
    });
    afterAll(() => {
      const statuses = [...seen.statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ');
      console.log(
        `HTTP property runs (${engineName}): random requests ${seen.mixed}, random byte bodies ${seen.bytes}; statuses ${statuses}`,
      );
    });

    function authArbitrary(): fc.Arbitrary<Auth> {
      const randomToken = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/);
      return fc.oneof(
        {
          weight: 14,
          arbitrary: fc
            .constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR')
            .map((s): Auth => ({ header: `${s} ${writer}`, expect: 'authenticated' })),
        },
        { weight: 1, arbitrary: fc.constant<Auth>({ header: undefined, expect: 40101 }) },
        // The scheme alone presents no credential (RFC 6750 §3.1).
        { weight: 1, arbitrary: fc.constant<Auth>({ header: 'Bearer', expect: 40101 }) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(
              `Basic ${Buffer.from(`x:${writer}`).toString('base64')}`,
              `Token ${writer}`,
              `Digest ${writer}`,
              `${writer}`,
            )
            .map((h): Auth => ({ header: h, expect: 40101 })),
        },
        { weight: 1, arbitrary: randomToken.map((r): Auth => ({ header: `Bearer pst_${r}`, expect: 40102 })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(
              `Bearer ${revoked}`,
              `Bearer ${writer}x`,
              `Bearer ${writer.slice(0, -1)}`,
              `Bearer ${writer.toUpperCase()}`,
            )
            .map((h): Auth => ({ header: h, expect: 40102 })),
        },
        { weight: 1, arbitrary: fc.constant<Auth>({ header: `Bearer ${reader}`, expect: 40301 }) },
        {
          weight: 1,
          arbitrary: fc
            .oneof(
              fc.constantFrom(
                `Bearer  ${writer}`,
                `Bearer\t${writer}`,
                `Bearer ${writer} ${writer}`,
                `Bearer ${writer},Bearer x`,
              ),
              headerValue,
            )
            .map((h): Auth => ({ header: h, expect: 'unpredicted' })),
        },
      );
    }

    const media: fc.Arbitrary<Media> = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...GOOD_TYPES).map((v): Media => ({ values: [v], expect: 'json' })) },
      { weight: 1, arbitrary: fc.constant<Media>({ values: [], expect: 41501 }) },
      { weight: 2, arbitrary: fc.constantFrom(...BAD_TYPES).map((v): Media => ({ values: [v], expect: 41501 })) },
      // Repeated Content-Type headers are ambiguous (which one would a proxy have used?): 415.
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...GOOD_TYPES, ...BAD_TYPES), fc.constantFrom(...GOOD_TYPES, ...BAD_TYPES))
          .map((v): Media => ({ values: v, expect: 41501 })),
      },
      { weight: 1, arbitrary: headerValue.map((v): Media => ({ values: [v], expect: 'unpredicted' })) },
    );

    function predict(c: HttpCase): Prediction {
      if (c.auth.expect === 'unpredicted') return 'unpredicted';
      if (c.auth.expect !== 'authenticated') return { status: Math.floor(c.auth.expect / 100), error: c.auth.expect };
      if (c.media.expect === 'unpredicted') return 'unpredicted';
      if (c.media.expect === 41501) return { status: 415, error: 41501 };
      // RFC 8259 §8.1 lets a parser either refuse or ignore a byte order mark: both are fine.
      if (startsWithBom(c.body)) return 'unpredicted';
      const expected = expectedOutcome(c.body, BODY_LIMIT);
      if (expected.status !== 200) return expected;
      const key = expected.plant.id.toString();
      const stored = model.get(key);
      if (stored === undefined || (stored.name === expected.plant.name && stored.tag === (expected.plant.tag ?? null)))
        return { status: 200 };
      return {
        status: 409,
        error: 40901,
        message: `A plant with id ${key} already exists with a different name or tag; choose another id.`,
      };
    }

    async function send(c: HttpCase): Promise<WireResponse> {
      const prediction = predict(c);
      const result = await exchange(t.url, toBytes(c), { deadlineMs: 10_000, stopAfterResponses: 1 });
      const response = result.responses[0];
      if (!response)
        throw new Error(`no response (connection ${result.ending}) to ${toBytes(c).toString('latin1').slice(0, 500)}`);
      seen.statuses.set(response.status, (seen.statuses.get(response.status) ?? 0) + 1);

      expect(response.status).toBeLessThan(500);
      if (response.status !== 200)
        expectErrorContract(response, `request ${JSON.stringify(toBytes(c).toString('latin1').slice(0, 300))}`);
      if (response.status === 401) expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="plantstore"/);

      if (prediction !== 'unpredicted') {
        const actual: { status: number; error?: number; message?: string } = { status: response.status };
        if (prediction.error !== undefined) actual.error = JSON.parse(response.text).error;
        if (prediction.message !== undefined) actual.message = JSON.parse(response.text).message;
        expect({ actual, request: c.body.toString('latin1').slice(0, 200) }).toEqual({
          actual: prediction,
          request: c.body.toString('latin1').slice(0, 200),
        });
      }

      if (response.status === 200) {
        // Only a valid NewPlant can ever be accepted, whatever the headers were.
        const expected = expectedOutcome(startsWithBom(c.body) ? c.body.subarray(3) : c.body, BODY_LIMIT);
        if (expected.status !== 200)
          throw new Error(
            `accepted a body the contract refuses (${expected.status}): ${c.body.toString('latin1').slice(0, 300)}`,
          );
        expect(response.headers['content-type']).toBe(JSON_UTF8);
        const key = expected.plant.id.toString();
        const row = model.get(key) ?? { id: key, name: expected.plant.name, tag: expected.plant.tag ?? null };
        expect(JSON.parse(response.text)).toEqual(
          row.tag === null ? { name: row.name } : { name: row.name, tag: row.tag },
        );
        model.set(key, row);
      }
      expect(sortById(await t.plants())).toEqual(sortById([...model.values()]));
      return response;
    }

    it('random headers and bodies: never a 5xx, always the Error body, the store changes only on a 200', async () => {
      const caseArbitrary: fc.Arbitrary<HttpCase> = fc.record({
        auth: authArbitrary(),
        media,
        path: fc.oneof(
          { weight: 6, arbitrary: fc.constant('/plants') },
          {
            weight: 1,
            arbitrary: fc.constantFrom('/plants?', '/plants?x=1', '/plants?access_token=abc', '/plants?a=%zz'),
          },
        ),
        extraHeaders: fc.array(extraHeader, { maxLength: 4 }),
        body,
        chunks: fc.option(fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }), {
          nil: undefined,
          freq: 3,
        }),
      });
      await fc.assert(
        fc.asyncProperty(caseArbitrary, async (c) => {
          seen.mixed++;
          await send(c);
        }),
        { numRuns: MIXED_RUNS },
      );
    }, 120_000);

    it('random byte strings as bodies with a valid token: a 4xx Error body unless the bytes are a valid NewPlant', async () => {
      const bytes = fc.oneof(
        fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
        fc.string({ unit: 'binary', maxLength: 100 }).map((s) => Buffer.from(s, 'utf8')),
        fc
          .constantFrom(
            '{',
            '}',
            '{"id"',
            '{"id": 1, "name": "x"',
            '\u0000',
            '\ufeff{}',
            '[]',
            '""',
            'nul',
            '{"id": 1e999999999999999999, "name": "x"}',
          )
          .map((s) => Buffer.from(s, 'utf8')),
      );
      await fc.assert(
        fc.asyncProperty(bytes, async (b) => {
          seen.bytes++;
          await send({
            auth: { header: `Bearer ${writer}`, expect: 'authenticated' },
            media: { values: ['application/json'], expect: 'json' },
            path: '/plants',
            extraHeaders: [],
            body: b,
            chunks: undefined,
          });
        }),
        { numRuns: BYTES_RUNS },
      );
    }, 120_000);
  },
);
