import type { ListedPlant } from '@plantstore/client';
import { PlantPageQuery, PlantQueryError } from '@plantstore/domain';
import type { CataloguePages, PageChange } from '../catalogue-pages.js';
import { h, viewHeading } from '../dom.js';
import { fragmentOf } from '../routes.js';
import { failureAlert } from './failure-alert.js';
import { pageChangeText } from './live-text.js';
import { isLeft, type View, type ViewContext } from './view-context.js';

/** The catalogue a page at a time, optionally only the plants with one tag; each plant opens its own view. */
export function catalogueView(tag: string | undefined, context: ViewContext): View {
  const heading = viewHeading(tag === undefined ? 'Catalogue' : `Catalogue: plants tagged “${tag}”`);
  const results = h('div', { class: 'results' });
  const element = h('section', { class: 'view' }, heading, tagFilter(tag, context), results);
  const pages = context.catalogue(tag);
  const show = (moveFocus: boolean) => showPage(pages, results, tag, context, moveFocus);
  // Changes made elsewhere show without a reload, from once the first page is there.
  const follow = () => context.follow((_, inCatalogue) => showChanges(inCatalogue, pages, results, tag, context));
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
  tag: string | undefined,
  context: ViewContext,
): void {
  const told = changes
    .filter((change) => change.page === pages.current?.number)
    .map((change) => pageChangeText(change, tag));
  const listing = results.querySelector('.listing');
  if (told.length === 0 || listing === null) return;
  const focusedId = document.activeElement?.closest('tr')?.getAttribute('data-id');
  const hadFocus = listing.contains(document.activeElement);
  listing.replaceChildren(pageBody(pages.current!.plants, tag));
  if (hadFocus) {
    const same =
      focusedId === null || focusedId === undefined
        ? null
        : listing.querySelector<HTMLElement>(`tr[data-id="${focusedId}"] a`);
    (same ?? results.querySelector<HTMLElement>('h2'))?.focus();
  }
  context.announce(told.join(' '));
}

/** A form of its own: the tag is checked by the domain's query rules before anything is sent. */
function tagFilter(tag: string | undefined, context: ViewContext): HTMLElement {
  const input = h('input', { id: 'tag-filter', name: 'tag', type: 'search', value: tag ?? '', autocomplete: 'off' });
  const problem = h('p', { id: 'tag-filter-problem', class: 'problem', role: 'alert' });
  const form = h(
    'form',
    { role: 'search', 'aria-label': 'Filter by tag', novalidate: true, class: 'filter' },
    h('label', { for: 'tag-filter' }, 'Tag'),
    input,
    h('button', { type: 'submit' }, 'Filter'),
    problem,
  );
  if (tag !== undefined) {
    const all = h('a', { href: fragmentOf({ view: 'catalogue' }) }, 'Show every plant');
    form.append(all);
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const wanted = input.value;
    if (wanted === '') return context.go({ view: 'catalogue' });
    const checked = PlantPageQuery.parse({ tags: [wanted] });
    if (checked.ok) return context.go({ view: 'catalogue', tag: wanted });
    problem.textContent = new PlantQueryError(checked.violations).message;
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'tag-filter-problem');
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
  tag: string | undefined,
  context: ViewContext,
  moveFocus: boolean,
): void {
  const page = pages.current!;
  const title = h('h2', { tabindex: '-1' }, `Page ${page.number}`);
  const show = (focus: boolean) => showPage(pages, results, tag, context, focus);
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
  const body = h('div', { class: 'listing' }, pageBody(page.plants, tag));
  results.replaceChildren(title, body, h('nav', { 'aria-label': 'Catalogue pages', class: 'pager' }, previous, next));
  if (moveFocus) title.focus();
}

function pageBody(plants: readonly ListedPlant[], tag: string | undefined): HTMLElement {
  return plants.length === 0
    ? h('p', {}, tag === undefined ? 'The catalogue has no plants yet.' : `No plant is tagged “${tag}”.`)
    : plantTable(plants);
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
