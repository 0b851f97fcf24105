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

// RFC 9110 §8.8.3: an entity tag is an optional W/ and a quoted string of etagc characters.
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/**
 * The entity tags `If-Match` (RFC 9110 §13.1.1) names: undefined when the header is absent,
 * `*` for any current representation, else the strong tags of its list (compared strongly, a
 * weak tag `W/"…"` matches nothing). A list that does not parse names none.
 */
export function ifMatchTags(header: string | undefined): '*' | readonly string[] | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  const tags = header.split(',').map((tag) => tag.trim());
  if (!tags.every((tag) => ENTITY_TAG.test(tag))) return [];
  return tags.filter((tag) => !tag.startsWith('W/'));
}
