import type { Plant } from '@plantstore/client';
import type { PlantId } from '@plantstore/domain';
import { h } from '../dom.js';
import { retiredId } from './deleted-state.js';

/** The question asked before a delete, with its two answers and the place a failure is told. */
export interface DeleteConfirmation {
  readonly element: HTMLElement;
  /** Takes the focus: the question is what a screen reader says first, and Enter on it deletes nothing. */
  readonly heading: HTMLElement;
  readonly confirm: HTMLButtonElement;
  readonly cancel: HTMLButtonElement;
  readonly summary: HTMLElement;
}

/**
 * Asks before deleting, in place of the actions: which plant, that it is for good, and that its
 * id is retired. Asked again, saying so, when the plant changed since it was read.
 */
export function deleteConfirmation(id: PlantId, plant: Plant, changedMeanwhile: boolean): DeleteConfirmation {
  const headingId = 'delete-question';
  const heading = h(
    'h2',
    { id: headingId, tabindex: '-1' },
    changedMeanwhile ? 'This plant changed: delete it as it is now?' : 'Delete this plant?',
  );
  const what = h(
    'p',
    {},
    `Plant ${id.toString()}, “${plant.name}”, will be deleted for good. ${retiredId(id.toString())}`,
  );
  const changed = changedMeanwhile
    ? h('p', {}, 'Someone else changed it after you opened it, so it was not deleted. Above is the plant as it is now.')
    : undefined;
  const confirm = h('button', { type: 'button', class: 'danger' }, `Delete plant ${id.toString()}`);
  const cancel = h('button', { type: 'button', class: 'secondary' }, 'Keep it');
  const summary = h('div', { class: 'summary', role: 'alert' });
  const element = h(
    'div',
    { class: 'confirm', role: 'group', 'aria-labelledby': headingId },
    heading,
    changed,
    what,
    summary,
    h('div', { class: 'buttons' }, confirm, cancel),
  );
  return { element, heading, confirm, cancel, summary };
}
