/**
 * Where the person is in the page, kept in the URL's fragment so that the browser's back and
 * forward buttons and bookmarks work. The fragment never reaches the server, and it never holds
 * the token: only what the person looks at.
 */
/** What the catalogue shows: plants with this tag, whose name contains this text; both optional. */
export interface CatalogueFilter {
  readonly tag?: string | undefined;
  readonly name?: string | undefined;
}

export type Route =
  | ({ readonly view: 'catalogue' } & CatalogueFilter)
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
    const parameters = new URLSearchParams(query);
    const [tag, name] = [parameters.get('tag'), parameters.get('name')];
    return { view: 'catalogue', ...(tag === null ? {} : { tag }), ...(name === null ? {} : { name }) };
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
    case 'catalogue': {
      const parameters = new URLSearchParams();
      if (route.tag !== undefined) parameters.set('tag', route.tag);
      if (route.name !== undefined) parameters.set('name', route.name);
      return parameters.size === 0 ? '#/plants' : `#/plants?${parameters.toString()}`;
    }
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
