import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { readJsonObject, type JsonObject } from '@plantstore/json-reader';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { Failures } from '../errors/failures.js';
import { HTTP_OPTIONS, type HttpOptions } from '../ports/di-tokens.js';
import { headerCount } from '../http/raw-headers.js';
import { isJsonContentType } from './media-type.js';
import { LARGE_BODY_BYTES, ParseTurns } from './parse-turns.js';
import { readBody } from './read-body.js';

/** Request → JSON object, in the order of docs/http-api.md#order-of-checks: media type, size, syntax, object. */
@Injectable()
export class JsonBodyPipe implements PipeTransform<FastifyRequest, Promise<JsonObject>> {
  private readonly turns = new ParseTurns();

  constructor(@Inject(HTTP_OPTIONS) private readonly options: HttpOptions) {}

  async transform(request: FastifyRequest): Promise<JsonObject> {
    // Node keeps the first of repeated Content-Type headers; a proxy may keep the last. Refuse the ambiguity.
    if (headerCount(request.raw.rawHeaders, 'content-type') > 1) throw new ApiError(Failures.repeatedContentType);
    const transferCodings = codingsBesides(request.headers['transfer-encoding'], 'chunked');
    if (transferCodings.length > 0) throw new ApiError(Failures.transferCodingNotImplemented(transferCodings));
    // A compressed body read as plain JSON would be refused as invalid, or worse, guessed at (RFC 9110 §8.4).
    const contentCodings = codingsBesides(request.headers['content-encoding'], 'identity');
    if (contentCodings.length > 0) throw new ApiError(Failures.contentCoded(contentCodings));
    if (!isJsonContentType(request.headers['content-type'])) throw new ApiError(Failures.notJson);
    const body = await readBody(request.raw, this.options.bodyLimitBytes);
    if (body.length >= LARGE_BODY_BYTES) await this.turns.next();
    const reading = readJsonObject(body, 'The request body');
    if (reading.ok) return reading.object;
    const code = reading.problem === 'not-an-object' ? ErrorCode.NotAnObject : ErrorCode.InvalidJson;
    throw new ApiError({ code, message: reading.message });
  }
}

const NO_CODINGS: readonly string[] = [];

/** The codings a header lists (lower-cased), except the one that changes nothing here. */
function codingsBesides(header: string | string[] | undefined, harmless: string): readonly string[] {
  // Almost every request has neither header: nothing to split.
  if (header === undefined) return NO_CODINGS;
  const values = Array.isArray(header) ? header : [header];
  return values
    .flatMap((value) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== harmless);
}
