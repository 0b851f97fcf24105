import { headerCount } from '../http/raw-headers.js';

/**
 * What a request's Authorization header presents (docs/tokens.md), read in this one place:
 * - `missing`: no bearer credential (no header, another scheme, or `Bearer` with nothing after
 *   it: RFC 6750 §3.1 says such a request lacks authentication, and gets no error attribute);
 * - `malformed`: a bearer credential that is not one token;
 * - `repeated`: two Authorization headers, of which a proxy in front may have kept the other;
 * - `token`: one word after the scheme, with any run of spaces or tabs between (RFC 7235
 *   allows several) and after.
 */
export type BearerCredentials =
  { readonly kind: 'missing' | 'malformed' | 'repeated' } | { readonly kind: 'token'; readonly token: string };

/** The request as Node received it: `rawHeaders` tells a repeated header. */
export interface HeadersOfRequest {
  readonly headers: { readonly authorization?: string | undefined };
  readonly rawHeaders: readonly string[];
}

const MISSING: BearerCredentials = { kind: 'missing' };
const MALFORMED: BearerCredentials = { kind: 'malformed' };
const REPEATED: BearerCredentials = { kind: 'repeated' };
// The scheme (case-insensitive) with something after it: a credential was presented.
const PRESENTED = /^bearer\s+\S/i;
const WELL_FORMED = /^bearer[ \t]+(\S+)[ \t]*$/i;

// Each request's reading, kept while the request lives: the in-flight limit reads it in front
// of the framework and the bearer guard after routing, and the header is read once for both.
const readings = new WeakMap<HeadersOfRequest, BearerCredentials>();

/** The bearer credentials of a request, read from its Authorization header the first time they are asked for. */
export function readBearerCredentials(request: HeadersOfRequest): BearerCredentials {
  let credentials = readings.get(request);
  if (credentials === undefined) readings.set(request, (credentials = read(request)));
  return credentials;
}

function read(request: HeadersOfRequest): BearerCredentials {
  const header = request.headers.authorization;
  if (header === undefined) return MISSING;
  if (headerCount(request.rawHeaders, 'authorization') > 1) return REPEATED;
  if (!PRESENTED.test(header)) return MISSING;
  const token = WELL_FORMED.exec(header)?.[1];
  return token === undefined ? MALFORMED : { kind: 'token', token };
}
