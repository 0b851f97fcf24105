import type { PlantWithEtag } from '@plantstore/client';
import type { PlantId } from '@plantstore/domain';
import { deleteIfUnchanged } from '../conditional-changes.js';
import { h } from '../dom.js';
import { fragmentOf } from '../routes.js';
import { deleteConfirmation } from './delete-confirmation.js';
import { failureAlert } from './failure-alert.js';
import { callOptions, isLeft, type ViewContext } from './view-context.js';

/** What the plant view does once a confirmed delete has an answer. */
export interface AfterDelete {
  /** Not deleted: the plant changed since it was read; here it is as it is now. */
  changed(current: PlantWithEtag): void;
  deleted(): void;
}

/**
 * Edit (a view of its own) and Delete, which asks first, in place: the question names the
 * plant and what deleting means, and only its own button deletes. `start` asks at once, for a
 * delete refused because the plant changed. `focus` is what takes the focus once shown.
 */
export function plantActions(
  id: PlantId,
  read: PlantWithEtag,
  context: ViewContext,
  start: 'actions' | 'confirm-again',
  after: AfterDelete,
): { element: HTMLElement; focus: HTMLElement | undefined } {
  const element = h('div', { class: 'plant-actions' });
  const edit = h(
    'a',
    { href: fragmentOf({ view: 'edit-plant', id: id.toString() }), class: 'button' },
    'Edit this plant',
  );
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete this plant');
  const actions = h('div', { class: 'buttons' }, edit, remove);

  const ask = (changedMeanwhile: boolean): HTMLElement => {
    const step = deleteConfirmation(id, read.plant, changedMeanwhile);
    const cancel = () => {
      element.replaceChildren(actions);
      remove.focus();
    };
    step.cancel.addEventListener('click', cancel);
    step.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !step.confirm.disabled) cancel();
    });
    step.confirm.addEventListener('click', () => {
      if (step.confirm.disabled) return;
      step.confirm.disabled = step.cancel.disabled = true;
      step.summary.replaceChildren();
      context.announce(`Deleting plant ${id.toString()}…`);
      deleteIfUnchanged(context.client, id.value, read.etag, callOptions(context)).then(
        (result) => {
          // Deleted, or changed by someone: either way the catalogue read before is not the store's now.
          context.catalogueChanged();
          if (isLeft(context)) return;
          context.announce('');
          if (result.outcome === 'deleted') after.deleted();
          else after.changed(result.current);
        },
        (error: unknown) => {
          if (isLeft(context)) return;
          context.announce('');
          step.confirm.disabled = step.cancel.disabled = false;
          step.summary.replaceChildren(failureAlert(error, context));
        },
      );
    });
    element.replaceChildren(step.element);
    return step.heading;
  };

  remove.addEventListener('click', () => ask(false).focus());
  if (start === 'confirm-again') return { element, focus: ask(true) };
  element.append(actions);
  return { element, focus: undefined };
}
