import type { ListedPlant } from '@plantstore/client';
import { PlantPageQuery, PlantQueryError, type PlantPageQueryInput } from '@plantstore/domain';
import type { CataloguePages, PageChange } from '../catalogue-pages.js';
import { h, viewHeading } from '../dom.js';
import { fragmentOf, type CatalogueFilter } from '../routes.js';
import { failureAlert } from './failure-alert.js';
import { pageChangeText } from './live-text.js';
import { isLeft, type View, type ViewContext } from './view-context.js';

/**
 * The catalogue a page at a time, optionally only the plants with one tag and those whose name
 * contains a text (both in the page's address, so a search can be bookmarked and shared); each
 * plant opens its own view.
 */
export function catalogueView(filter: CatalogueFilter, context: ViewContext): View {
  const heading = viewHeading(headingOf(filter));
  const results = h('div', { class: 'results' });
  const filters = h('div', { class: 'filters' }, nameSearch(filter, context), tagFilter(filter, context));
  if (filter.tag !== undefined || filter.name !== undefined)
    filters.append(h('p', {}, h('a', { href: fragmentOf({ view: 'catalogue' }) }, 'Show every plant')));
  const element = h('section', { class: 'view' }, heading, filters, results);
  const pages = context.catalogue(filter);
  const show = (moveFocus: boolean) => showPage(pages, results, filter, context, moveFocus);
  // Changes made elsewhere show without a reload, from once the first page is there.
  const follow = () => context.follow((_, inCatalogue) => showChanges(inCatalogue, pages, results, filter, context));
  // A page still being read (asked for by a view the person left) is waited for, not read twice.
  if (pages.current === undefined || pages.busy)
    void turn(pages, results, context, () => pages.next(), show).then(() => {
      if (!isLeft(context) && pages.current !== undefined) follow();
    });
  else {
    show(false);
    follow();
  }
  return { element, focus: heading };
}

/**
 * What changes from the feed did to the pages read: the page shown is redrawn in place (the
 * focus stays on the plant it was on, if it is still there) and its changes told politely.
 */
function showChanges(
  changes: readonly PageChange[],
  pages: CataloguePages,
  results: HTMLElement,
  filter: CatalogueFilter,
  context: ViewContext,
): void {
  const told = changes
    .filter((change) => change.page === pages.current?.number)
    .map((change) => pageChangeText(change, filter.tag));
  const listing = results.querySelector('.listing');
  if (told.length === 0 || listing === null) return;
  const focusedId = document.activeElement?.closest('tr')?.getAttribute('data-id');
  const hadFocus = listing.contains(document.activeElement);
  listing.replaceChildren(pageBody(pages.current!.plants, filter));
  if (hadFocus) {
    const same =
      focusedId === null || focusedId === undefined
        ? null
        : listing.querySelector<HTMLElement>(`tr[data-id="${focusedId}"] a`);
    (same ?? results.querySelector<HTMLElement>('h2'))?.focus();
  }
  context.announce(told.join(' '));
}

function headingOf({ tag, name }: CatalogueFilter): string {
  if (tag === undefined && name === undefined) return 'Catalogue';
  const tagged = tag === undefined ? [] : [`tagged “${tag}”`];
  const named = name === undefined ? [] : [`whose name contains “${name}”`];
  return `Catalogue: plants ${[...tagged, ...named].join(' and ')}`;
}

/** The name search: the other filter is kept, an empty box drops this one. */
function nameSearch(filter: CatalogueFilter, context: ViewContext): HTMLElement {
  return filterForm(
    { id: 'name-filter', label: 'Name contains', form: 'Search by name', button: 'Search', value: filter.name },
    (name) => (name === undefined ? {} : { name }),
    (name) => ({ ...filter, name }),
    context,
  );
}

function tagFilter(filter: CatalogueFilter, context: ViewContext): HTMLElement {
  return filterForm(
    { id: 'tag-filter', label: 'Tag', form: 'Filter by tag', button: 'Filter', value: filter.tag },
    (tag) => ({ tags: tag === undefined ? [] : [tag] }),
    (tag) => ({ ...filter, tag }),
    context,
  );
}

interface FilterWords {
  readonly id: string;
  readonly label: string;
  readonly form: string;
  readonly button: string;
  readonly value: string | undefined;
}

/** A form of its own: what is typed is checked by the domain's query rules before anything is sent. */
function filterForm(
  words: FilterWords,
  asQuery: (value: string | undefined) => PlantPageQueryInput,
  routeWith: (value: string | undefined) => CatalogueFilter,
  context: ViewContext,
): HTMLElement {
  const { id } = words;
  const input = h('input', { id, name: id, type: 'search', value: words.value ?? '', autocomplete: 'off' });
  const problem = h('p', { id: `${id}-problem`, class: 'problem', role: 'alert' });
  const form = h(
    'form',
    { role: 'search', 'aria-label': words.form, novalidate: true, class: 'filter' },
    h('label', { for: id }, words.label),
    input,
    h('button', { type: 'submit' }, words.button),
    problem,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const wanted = input.value === '' ? undefined : input.value;
    const checked = PlantPageQuery.parse(asQuery(wanted));
    if (checked.ok) return context.go({ view: 'catalogue', ...routeWith(wanted) });
    problem.textContent = new PlantQueryError(checked.violations).message;
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', problem.id);
    input.focus();
  });
  return form;
}

/** Reads a page (the first, or the next), then shows it; a failure is shown in its place. */
async function turn(
  pages: CataloguePages,
  results: HTMLElement,
  context: ViewContext,
  move: () => Promise<boolean>,
  show: (moveFocus: boolean) => void,
): Promise<void> {
  results.setAttribute('aria-busy', 'true');
  if (pages.current === undefined) results.replaceChildren(h('p', {}, 'Loading the catalogue…'));
  try {
    const moved = await move();
    if (isLeft(context)) return;
    if (!moved) context.announce('That was the last page.');
    show(moved && pages.current!.number > 1);
  } catch (error) {
    if (isLeft(context)) return;
    results.replaceChildren(failureAlert(error, context));
  } finally {
    results.removeAttribute('aria-busy');
  }
}

function showPage(
  pages: CataloguePages,
  results: HTMLElement,
  filter: CatalogueFilter,
  context: ViewContext,
  moveFocus: boolean,
): void {
  const page = pages.current!;
  const title = h('h2', { tabindex: '-1' }, `Page ${page.number}`);
  const show = (focus: boolean) => showPage(pages, results, filter, context, focus);
  const previous = h('button', { type: 'button', disabled: !pages.hasPrevious }, 'Previous page');
  previous.addEventListener('click', () => {
    pages.previous();
    show(true);
  });
  const next = h('button', { type: 'button', disabled: !pages.mayHaveNext }, 'Next page');
  next.addEventListener('click', () => {
    next.disabled = true;
    void turn(pages, results, context, () => pages.next(), show);
  });
  const body = h('div', { class: 'listing' }, pageBody(page.plants, filter));
  results.replaceChildren(title, body, h('nav', { 'aria-label': 'Catalogue pages', class: 'pager' }, previous, next));
  if (moveFocus) title.focus();
  // A search's result is said without moving the focus, which stays where the person typed.
  if (filter.name !== undefined) context.announce(countOf(page.plants.length, page.number, pages.mayHaveNext));
}

function noPlants({ tag, name }: CatalogueFilter): string {
  if (name !== undefined) return 'No plant matches this search.';
  return tag === undefined ? 'The catalogue has no plants yet.' : `No plant is tagged “${tag}”.`;
}

function countOf(count: number, pageNumber: number, more: boolean): string {
  const plants = count === 1 ? '1 plant' : `${count} plants`;
  return `${plants} found on page ${pageNumber}${more ? '; more on the next page' : ''}.`;
}

function pageBody(plants: readonly ListedPlant[], filter: CatalogueFilter): HTMLElement {
  return plants.length === 0 ? h('p', {}, noPlants(filter)) : plantTable(plants);
}

function plantTable(plants: readonly ListedPlant[]): HTMLTableElement {
  const rows = plants.map(({ id, name, tag }) =>
    h(
      'tr',
      { 'data-id': id.toString() },
      h('td', { class: 'id' }, id.toString()),
      h('td', {}, h('a', { href: fragmentOf({ view: 'plant', id: id.toString() }) }, name)),
      h('td', {}, tag ?? h('span', { class: 'none' }, 'no tag')),
    ),
  );
  return h(
    'table',
    {},
    h(
      'thead',
      {},
      h('tr', {}, h('th', { scope: 'col' }, 'Id'), h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Tag')),
    ),
    h('tbody', {}, ...rows),
  );
}
