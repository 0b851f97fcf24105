/** What `/plants/` is routed as: an id no rule accepts, so that it gets the bad-id answer. */
const EMPTY_ID_STAND_IN = '%20';

/**
 * `/plants/` is GET /plants/{id} with an empty id (400 40004 after the token checks), not the
 * list and not an unknown route. Nest hands a route whose parameter is empty to the not-found
 * handler, so the router is given the path with a stand-in id that fails the same rule (the
 * 40004 message never repeats the id). Every other URL is left as it came.
 */
export function routeEmptyPlantId(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path === '/plants/' ? `/plants/${EMPTY_ID_STAND_IN}${query === -1 ? '' : url.slice(query)}` : url;
}
