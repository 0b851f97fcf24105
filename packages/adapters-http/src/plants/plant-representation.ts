import { hash } from 'node:crypto';
import type { Plant, PlantPageQuery } from '@plantstore/domain';
import { toPlantResponse } from './plant.response.js';

export const JSON_UTF8 = 'application/json; charset=utf-8';

/** The body of GET /plants/{id}: the Plant exactly as POST /plants answers it (no id). */
export function plantBody(plant: Plant): string {
  return JSON.stringify(toPlantResponse(plant));
}

/** The body of GET /plants: `[{"id": <int64>, "name": …, "tag": …}]`, each id its exact digits (Plant.toJsonText). */
export function plantListBody(plants: readonly Plant[]): string {
  return `[${plants.map((plant) => plant.toJsonText()).join(',')}]`;
}

/** RFC 8288 `Link` to the next page: the same tags and limit, after the last id of this page. */
export function nextLink(next: PlantPageQuery): string {
  const { tags, limit, after } = next.toJSON();
  const parameters = [
    ...tags.map((tag) => `tags=${encodeURIComponent(tag)}`),
    `limit=${limit}`,
    ...(after === undefined ? [] : [`after=${after}`]),
  ];
  return `</plants?${parameters.join('&')}>; rel="next"`;
}

/** A strong entity tag of a body: the same bytes, the same tag (RFC 9110 §8.8.3). One-shot: it runs on every read. */
export function strongEtag(body: string): string {
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
