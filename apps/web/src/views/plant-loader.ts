import type { PlantWithEtag } from '@plantstore/client';
import { PlantId, PlantQueryError } from '@plantstore/domain';
import { h } from '../dom.js';
import { failureAlert } from './failure-alert.js';
import { callOptions, isLeft, type ViewContext } from './view-context.js';

/** The id of a plant view's URL, as the API reads a path's id; undefined (and the reason in `content`) when it is none. */
export function plantIdIn(idText: string, content: HTMLElement): PlantId | undefined {
  const id = PlantId.fromCanonical(idText);
  if (id instanceof PlantId) return id;
  content.append(h('div', { role: 'alert', class: 'failure' }, h('p', {}, new PlantQueryError([id]).message)));
  return undefined;
}

/**
 * Reads plant `id` into `content`: a line while it is read, then what `show` makes of the plant
 * and its ETag, or the failure in its place (a deleted plant as its state).
 */
export function loadPlant(
  id: PlantId,
  content: HTMLElement,
  context: ViewContext,
  show: (read: PlantWithEtag) => void,
): void {
  content.setAttribute('aria-busy', 'true');
  content.replaceChildren(h('p', {}, 'Loading the plant…'));
  void context
    .beforeRead()
    .then(() => context.client.getPlant(id.value, callOptions(context)))
    .then(
      (read) => {
        if (isLeft(context)) return;
        content.removeAttribute('aria-busy');
        show(read);
      },
      (error: unknown) => {
        if (isLeft(context)) return;
        content.removeAttribute('aria-busy');
        content.replaceChildren(failureAlert(error, context));
      },
    );
}
