import type { FastifyInstance } from 'fastify';

// RFC 9110 media type: token "/" token, then optional parameters.
const MEDIA_TYPE_SYNTAX = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(;|$)/;
/** Stands in for a Content-Type Fastify cannot parse; JsonBodyPipe refuses it (415) after the guards. */
const UNPARSABLE_CONTENT_TYPE = 'application/x-unparsable-content-type';

/**
 * Fastify parses bodies before Nest's guards run, which would tell an unauthenticated
 * caller whether its body was too large or malformed. Every content type is therefore
 * left unread here and read by JsonBodyPipe, after authentication.
 *
 * Fastify also answers 415 on its own, before any guard, when the Content-Type is not even
 * a media type (`json`, `""`): such a value is swapped for a placeholder first, so the
 * order of checks in docs/http-api.md (401 before 415) holds for it as well.
 */
export function deferBodyParsing(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  fastify.addHook('onRequest', (request, _reply, done) => {
    const type = request.headers['content-type'];
    if (type !== undefined && !MEDIA_TYPE_SYNTAX.test(type)) request.headers['content-type'] = UNPARSABLE_CONTENT_TYPE;
    done();
  });
}
