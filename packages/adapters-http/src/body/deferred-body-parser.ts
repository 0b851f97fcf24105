import type { FastifyInstance } from 'fastify';

/**
 * Fastify parses bodies before Nest's guards run, which would tell an unauthenticated
 * caller whether its body was too large or malformed. Every content type is therefore
 * left unread here and read by JsonBodyPipe, after authentication.
 */
export function deferBodyParsing(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
