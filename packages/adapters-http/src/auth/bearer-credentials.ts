/**
 * What an Authorization header presents, read in one place for the guard and the strategy
 * (docs/tokens.md): no bearer credential (no header, another scheme, or `Bearer` with nothing
 * after it: RFC 6750 §3.1), or one, whose token is set when it is well-formed: one word after
 * the scheme, with any run of spaces or tabs between (RFC 7235 allows several) and after.
 */
export type BearerCredentials =
  { readonly presented: false } | { readonly presented: true; readonly token: string | undefined };

const NOT_PRESENTED: BearerCredentials = { presented: false };
// The scheme (case-insensitive) with something after it: a credential was presented.
const PRESENTED = /^bearer\s+\S/i;
const WELL_FORMED = /^bearer[ \t]+(\S+)[ \t]*$/i;

export function readBearerCredentials(header: unknown): BearerCredentials {
  if (typeof header !== 'string' || !PRESENTED.test(header)) return NOT_PRESENTED;
  return { presented: true, token: WELL_FORMED.exec(header)?.[1] };
}
