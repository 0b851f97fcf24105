import type { FastifyReply } from 'fastify';
import { statusOf, type ErrorBody } from './error-codes.js';
import type { Failure } from './failures.js';

/** A Failure written out: status, headers, and the Error body of docs/errors.md serialised as `payload`. */
interface WrittenFailure {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: string;
}

/**
 * The one writer of the Error body: status, headers and payload of any non-2xx answer,
 * wherever it is raised. `closeConnection` for a request whose rest will not be read.
 */
export function errorReply(failure: Failure, options: { closeConnection?: boolean } = {}): WrittenFailure {
  const body: ErrorBody = { error: failure.code, message: failure.message };
  return {
    status: statusOf(failure.code),
    headers: {
      ...failure.headers,
      'content-type': 'application/json; charset=utf-8',
      ...(options.closeConnection ? { connection: 'close' } : {}),
    },
    payload: JSON.stringify(body),
  };
}

/** Sends the Error body on a Fastify reply (the error filter and the hooks that answer before routing). */
export function sendError(reply: FastifyReply, failure: Failure, options: { closeConnection?: boolean } = {}): void {
  const { status, headers, payload } = errorReply(failure, options);
  void reply.code(status).headers(headers).send(payload);
}
