import type { Plant, PlantChange, PlantFeedChange, PlantWithEtag } from '@plantstore/client';
import type { PlantId } from '@plantstore/domain';
import { saveChange, type SaveOutcome } from '../conditional-changes.js';
import { h, viewHeading } from '../dom.js';
import { checkPlantChange } from '../plant-form.js';
import { fragmentOf } from '../routes.js';
import { deletedState, retiredId } from './deleted-state.js';
import { editConflict } from './edit-conflict.js';
import { failureAlert } from './failure-alert.js';
import { liveContent, nameAndTag } from './live-text.js';
import { field, showCheck } from './plant-fields.js';
import { loadPlant, plantIdIn } from './plant-loader.js';
import { callOptions, isLeft, type View, type ViewContext } from './view-context.js';

/**
 * Edits a plant's name and tag. The form holds what is stored; it is checked with the domain's
 * rules before anything is sent, and saved only if the plant is still the version read (its
 * ETag in If-Match). When someone changed it meanwhile, the person sees both and chooses.
 */
export function editPlantView(idText: string, context: ViewContext): View {
  const content = h('div', { class: 'plant' });
  const id = plantIdIn(idText, content);
  const heading = viewHeading(id === undefined ? 'Edit a plant' : `Edit plant ${id.toString()}`);
  const back = h('p', {}, h('a', { href: fragmentOf({ view: 'catalogue' }) }, 'Back to the catalogue'));
  if (id !== undefined) loadPlant(id, content, context, (read) => content.replaceChildren(editForm(id, read, context)));
  return { element: h('section', { class: 'view' }, heading, content, back), focus: heading };
}

function editForm(id: PlantId, read: PlantWithEtag, context: ViewContext): HTMLElement {
  const name = field('name', 'Name', undefined);
  name.input.value = read.plant.name;
  name.input.setAttribute('aria-required', 'true');
  const tag = field('tag', 'Tag (optional)', 'Leave it empty for a plant without a tag.');
  tag.input.value = read.plant.tag ?? '';
  const summary = h('div', { class: 'summary', role: 'alert' });
  const submit = h('button', { type: 'submit' }, 'Save changes');
  const cancel = h(
    'a',
    { href: fragmentOf({ view: 'plant', id: id.toString() }), class: 'button secondary' },
    'Cancel',
  );
  const form = h(
    'form',
    { novalidate: true },
    name.block,
    tag.block,
    summary,
    h('div', { class: 'buttons' }, submit, cancel),
  );
  // Said as soon as the plant changes elsewhere, before a save would run into 412 (or 410).
  const meanwhile = h('p', { class: 'meanwhile', hidden: true });
  const area = h('div', {}, meanwhile, form);
  const plantId = id.toString();
  /** The version the form was opened on (or the person last chose over), and a save under way. */
  let known: Plant = read.plant;
  let saving: PlantChange | undefined;

  context.follow((changes) => {
    const latest = changes.filter((change) => change.id === id.value).at(-1);
    if (latest === undefined || !area.contains(form)) return;
    const text = meanwhileText(latest, known, saving);
    if (text === undefined) return;
    meanwhile.textContent = text;
    meanwhile.hidden = false;
    context.announce(text);
  });

  /** Sends `change` over the version `etag` names; `busy` are the buttons to hold meanwhile, `told` where a failure goes. */
  const save = (change: PlantChange, etag: string, busy: readonly HTMLButtonElement[], told: HTMLElement): void => {
    for (const button of busy) button.disabled = true;
    told.replaceChildren();
    saving = change;
    context.announce(`Saving plant ${plantId}…`);
    saveChange(context.client, id.value, change, etag, callOptions(context)).then(
      (result) => {
        saving = undefined;
        // Saved, changed by someone or deleted: the catalogue read before is not the store's now.
        context.catalogueChanged();
        if (isLeft(context)) return;
        context.announce('');
        settled(change, result);
      },
      (error: unknown) => {
        saving = undefined;
        if (isLeft(context)) return;
        context.announce('');
        for (const button of busy) button.disabled = false;
        told.replaceChildren(failureAlert(error, context));
      },
    );
  };

  const settled = (change: PlantChange, result: SaveOutcome): void => {
    switch (result.outcome) {
      case 'saved':
        return context.go({ view: 'plant', id: plantId }, `Plant ${plantId} was saved.`);
      case 'changed': {
        known = result.current.plant;
        const conflict = editConflict(result.current.plant, change);
        conflict.saveMine.addEventListener('click', () =>
          save(change, result.current.etag, [conflict.saveMine, conflict.keepStored], conflict.summary),
        );
        conflict.keepStored.addEventListener('click', () =>
          context.go({ view: 'plant', id: plantId }, `Your edit was not saved: plant ${plantId} is as stored.`),
        );
        area.replaceChildren(conflict.element);
        return conflict.heading.focus();
      }
      case 'deleted': {
        const state = deletedState(
          `Plant ${plantId} was deleted by someone else after you opened it, so your edit was not saved.`,
          retiredId(plantId),
        );
        area.replaceChildren(state.element);
        return state.heading.focus();
      }
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    const checked = checkPlantChange(id, { name: name.input.value, tag: tag.input.value });
    if (showCheck({ name, tag }, summary, checked)) save(checked.change, read.etag, [submit], summary);
  });
  return area;
}

/**
 * What the edit view says of a change made elsewhere to the plant it edits, or undefined when
 * the plant is still as the form was opened on (or is what this view is saving).
 */
function meanwhileText(change: PlantFeedChange, known: Plant, saving: PlantChange | undefined): string | undefined {
  const now = liveContent(change);
  if (now === undefined)
    return 'Someone else deleted this plant after you opened it: your edit can no longer be saved.';
  const same = (plant: { name: string; tag?: string | undefined }) => plant.name === now.name && plant.tag === now.tag;
  if (same(known) || (saving !== undefined && same(saving))) return undefined;
  return `Someone else changed this plant after you opened it: it is now ${nameAndTag(now.name, now.tag)}. If you save, you will see both versions and choose which to keep.`;
}
