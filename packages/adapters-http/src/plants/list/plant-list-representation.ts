import type { Plant, PlantPageQuery } from '@plantstore/domain';

/**
 * The header of GET /plants that carries the change feed's cursor taken before the page was
 * read (docs/changes.md#starting-a-copy): following the feed from it, over the page, is exact.
 */
export const FEED_CURSOR_HEADER = 'Feed-Cursor';

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
