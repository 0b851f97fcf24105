import { h } from '../dom.js';

/**
 * A deleted plant, told as what it is now: a state of the plant, not an error (no alert, no
 * error colour). `heading` takes the focus when the person's own action led here.
 */
export function deletedState(...sentences: string[]): { element: HTMLElement; heading: HTMLElement } {
  const heading = h('h2', { tabindex: '-1' }, 'Deleted');
  const element = h('div', { class: 'deleted' }, heading, ...sentences.map((sentence) => h('p', {}, sentence)));
  return { element, heading };
}

/** What a deletion means for the id, said wherever the page shows one. */
export function retiredId(id: string): string {
  return `Its id, ${id}, stays retired: no plant can be added with it again.`;
}
