import type { Plant, PlantChange } from '@plantstore/client';
import { h } from '../dom.js';

/** The plant as stored now beside the person's edit, and their two choices. */
export interface EditConflict {
  readonly element: HTMLElement;
  /** Takes the focus: it says why the edit was not saved. */
  readonly heading: HTMLElement;
  /** Saves the edit over the version stored now. */
  readonly saveMine: HTMLButtonElement;
  /** Leaves the plant as stored, the edit unsaved. */
  readonly keepStored: HTMLButtonElement;
  readonly summary: HTMLElement;
}

/**
 * An edit refused because someone changed the plant after it was read (412): nothing was
 * overwritten, and the person decides with both versions in front of them.
 */
export function editConflict(stored: Plant, mine: PlantChange): EditConflict {
  const heading = h('h2', { tabindex: '-1' }, 'Someone else changed this plant meanwhile');
  const why = h(
    'p',
    {},
    'It was changed after you opened it, so your edit was not saved. Here is what is stored now beside your edit: choose which to keep.',
  );
  const tag = (value: string | undefined) => value ?? h('span', { class: 'none' }, 'no tag');
  const table = h(
    'table',
    { class: 'versions' },
    h('caption', {}, 'The plant stored now, and your edit'),
    h(
      'thead',
      {},
      h('tr', {}, h('td', {}), h('th', { scope: 'col' }, 'Stored now'), h('th', { scope: 'col' }, 'Your edit')),
    ),
    h(
      'tbody',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, 'Name'),
        h('td', { class: 'stored' }, stored.name),
        h('td', { class: 'mine' }, mine.name),
      ),
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, 'Tag'),
        h('td', { class: 'stored' }, tag(stored.tag)),
        h('td', { class: 'mine' }, tag(mine.tag)),
      ),
    ),
  );
  const saveMine = h('button', { type: 'button' }, 'Save my edit over it');
  const keepStored = h('button', { type: 'button', class: 'secondary' }, 'Keep what is stored');
  const summary = h('div', { class: 'summary', role: 'alert' });
  const element = h(
    'div',
    { class: 'conflict' },
    heading,
    why,
    table,
    summary,
    h('div', { class: 'buttons' }, saveMine, keepStored),
  );
  return { element, heading, saveMine, keepStored, summary };
}
