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

/** RFC 8288 `Link` to the next page: the same tags, name and limit, after the last id of this page. */
export function nextLink(next: PlantPageQuery): string {
  const { tags, name, limit, after } = next.toJSON();
  const parameters = [
    ...tags.map((tag) => `tags=${encodeURIComponent(tag)}`),
    ...(name === undefined ? [] : [`name=${encodeURIComponent(name)}`]),
    `limit=${limit}`,
    ...(after === undefined ? [] : [`after=${after}`]),
  ];
  return `</plants?${parameters.join('&')}>; rel="next"`;
}

// Entity tags are HTTP's, shared with the web page: the plant reads use them from here.
export { matchesIfNoneMatch, strongEtag } from '../http/entity-tags.js';
