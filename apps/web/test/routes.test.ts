import { fragmentOf, routeOf, type Route } from '../src/routes.js';

describe('the routes of the page (the URL fragment)', () => {
  it.each<[string, Route]>([
    ['', { view: 'catalogue' }],
    ['#/plants', { view: 'catalogue' }],
    ['#/plants?tag=tropical', { view: 'catalogue', tag: 'tropical' }],
    ['#/plants?tag=caf%C3%A9%20%26%20tea', { view: 'catalogue', tag: 'café & tea' }],
    ['#/plants?name=foug%C3%A8re', { view: 'catalogue', name: 'fougère' }],
    ['#/plants?tag=fern&name=Foug%C3%A8re+m%C3%A2le', { view: 'catalogue', tag: 'fern', name: 'Fougère mâle' }],
    ['#/plants?token=pst_x&name=a', { view: 'catalogue', name: 'a' }],
    ['#/plants/9007199254740993', { view: 'plant', id: '9007199254740993' }],
    ['#/plants/-9223372036854775808', { view: 'plant', id: '-9223372036854775808' }],
    ['#/plants/9007199254740993/edit', { view: 'edit-plant', id: '9007199254740993' }],
    ['#/plants/edit', { view: 'plant', id: 'edit' }],
    ['#/new', { view: 'new-plant' }],
    ['#/somewhere-else', { view: 'catalogue' }],
  ])('%j is %j', (fragment, route) => {
    expect(routeOf(fragment)).toEqual(route);
  });

  it.each<Route>([
    { view: 'catalogue' },
    { view: 'catalogue', tag: 'a tag with spaces, commas & ?marks#' },
    { view: 'catalogue', name: 'ß & ?#=+%' },
    { view: 'catalogue', tag: 'fern', name: 'fougère' },
    { view: 'plant', id: '9223372036854775807' },
    { view: 'plant', id: 'not an id/with a slash' },
    { view: 'plant', id: 'an id ending/edit' },
    { view: 'edit-plant', id: '-1' },
    { view: 'edit-plant', id: 'not an id/edit' },
    { view: 'new-plant' },
  ])('writes %j so that it reads back the same', (route) => {
    expect(routeOf(fragmentOf(route))).toEqual(route);
  });

  it('keeps a malformed escape as written, for the plant view to refuse', () => {
    expect(routeOf('#/plants/%E0%A4%A')).toEqual({ view: 'plant', id: '%E0%A4%A' });
  });
});
