/**
 * Where the person is in the page, kept in the URL's fragment so that the browser's back and
 * forward buttons and bookmarks work. The fragment never reaches the server, and it never holds
 * the token: only what the person looks at.
 */
export type Route =
  | { readonly view: 'catalogue'; readonly tag?: string }
  | { readonly view: 'plant'; readonly id: string }
  | { readonly view: 'edit-plant'; readonly id: string }
  | { readonly view: 'new-plant' };

const PLANT = /^#\/plants\/(.+)$/;
const EDIT_PLANT = /^#\/plants\/(.+)\/edit$/;

/** The route a fragment names; anything unknown is the catalogue. */
export function routeOf(fragment: string): Route {
  if (fragment === '#/new') return { view: 'new-plant' };
  const edit = EDIT_PLANT.exec(fragment);
  if (edit) return { view: 'edit-plant', id: decoded(edit[1]!) };
  const plant = PLANT.exec(fragment);
  if (plant) return { view: 'plant', id: decoded(plant[1]!) };
  const [path, query = ''] = fragment.split('?', 2);
  if (path === '#/plants') {
    const tag = new URLSearchParams(query).get('tag');
    if (tag !== null) return { view: 'catalogue', tag };
  }
  return { view: 'catalogue' };
}

/** The fragment of a route; routeOf(fragmentOf(route)) is the route again. */
export function fragmentOf(route: Route): string {
  switch (route.view) {
    case 'new-plant':
      return '#/new';
    case 'plant':
      return `#/plants/${encodeURIComponent(route.id)}`;
    case 'edit-plant':
      return `#/plants/${encodeURIComponent(route.id)}/edit`;
    case 'catalogue':
      return route.tag === undefined ? '#/plants' : `#/plants?${new URLSearchParams({ tag: route.tag }).toString()}`;
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed escape is kept as written: the plant view reports it as an id it cannot read.
    return text;
  }
}
