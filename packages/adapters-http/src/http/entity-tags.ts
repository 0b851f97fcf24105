import { hash } from 'node:crypto';

/** A strong entity tag of a body: the same bytes, the same tag (RFC 9110 §8.8.3). One-shot: it runs on every read. */
export function strongEtag(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url')}"`;
}

/**
 * Whether `If-None-Match` names this entity tag (or is `*`): then the client's copy is
 * current and the answer is 304. The weak comparison RFC 9110 §13.1.2 asks for: `W/` is ignored.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .includes(etag);
}
