import type { Plant, PlantFeedChange, PlantWithEtag } from '@plantstore/client';
import type { PlantId } from '@plantstore/domain';
import { h, viewHeading } from '../dom.js';
import { fragmentOf } from '../routes.js';
import { deletedState, retiredId } from './deleted-state.js';
import { liveContent, nameAndTag } from './live-text.js';
import { plantActions } from './plant-actions.js';
import { loadPlant, plantIdIn } from './plant-loader.js';
import type { View, ViewContext } from './view-context.js';

/** One plant: its exact id, its name and its tag, and the actions that edit or delete it. */
export function plantView(idText: string, context: ViewContext): View {
  const content = h('div', { class: 'plant' });
  const id = plantIdIn(idText, content);
  const heading = viewHeading(id === undefined ? 'Plant' : `Plant ${id.toString()}`);
  const back = h('p', {}, h('a', { href: fragmentOf({ view: 'catalogue' }) }, 'Back to the catalogue'));
  if (id !== undefined)
    loadPlant(id, content, context, (read) => {
      showPlant(id, read, content, context, 'actions');
      context.follow((changes) => showChanges(id, changes, content, context));
    });
  return { element: h('section', { class: 'view' }, heading, content, back), focus: heading };
}

/**
 * The plant as read and its actions. After a delete refused because the plant changed, the
 * plant as it is now, and the question asked again.
 */
function showPlant(
  id: PlantId,
  read: PlantWithEtag,
  content: HTMLElement,
  context: ViewContext,
  start: 'actions' | 'confirm-again',
): void {
  const actions = plantActions(id, read, context, start, {
    changed: (current) => showPlant(id, current, content, context, 'confirm-again'),
    deleted: () => {
      const state = deletedState(`Plant ${id.toString()} was deleted.`, retiredId(id.toString()));
      content.replaceChildren(state.element);
      context.announce(`Plant ${id.toString()} was deleted.`);
      state.heading.focus();
    },
  });
  content.replaceChildren(plantDetails(id, read.plant), actions.element);
  actions.focus?.focus();
}

/**
 * A change made elsewhere, shown in place and told politely: a new name or tag in the details
 * (the actions keep the version read, so a delete still asks again if it changed), or the
 * plant's deletion. A plant shown as deleted stays so.
 */
function showChanges(
  id: PlantId,
  changes: readonly PlantFeedChange[],
  content: HTMLElement,
  context: ViewContext,
): void {
  const latest = changes.filter((change) => change.id === id.value).at(-1);
  if (latest === undefined || content.querySelector('.deleted') !== null) return;
  const now = liveContent(latest);
  if (now === undefined) {
    const hadFocus = content.contains(document.activeElement);
    const state = deletedState(`Plant ${id.toString()} was deleted.`, retiredId(id.toString()));
    content.replaceChildren(state.element);
    context.announce(`Plant ${id.toString()} was deleted.`);
    if (hadFocus) state.heading.focus();
    return;
  }
  const name = content.querySelector('dd.name');
  const tag = content.querySelector('dd.tag');
  if (name === null || tag === null) return;
  const shownTag = tag.querySelector('.none') === null ? tag.textContent : undefined;
  if (name.textContent === now.name && shownTag === now.tag) return;
  name.textContent = now.name;
  tag.replaceChildren(now.tag ?? h('span', { class: 'none' }, 'no tag'));
  context.announce(`Plant ${id.toString()} was changed: now ${nameAndTag(now.name, now.tag)}.`);
}

function plantDetails(id: PlantId, plant: Plant): HTMLElement {
  return h(
    'dl',
    { class: 'details' },
    h('dt', {}, 'Id'),
    h('dd', { class: 'id' }, id.toString()),
    h('dt', {}, 'Name'),
    h('dd', { class: 'name' }, plant.name),
    h('dt', {}, 'Tag'),
    h('dd', { class: 'tag' }, plant.tag ?? h('span', { class: 'none' }, 'no tag')),
  );
}
