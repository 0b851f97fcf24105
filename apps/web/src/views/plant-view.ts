import type { Plant } from '@plantstore/client';
import { PlantId, PlantQueryError } from '@plantstore/domain';
import { h, viewHeading } from '../dom.js';
import { fragmentOf } from '../routes.js';
import { failureAlert } from './failure-alert.js';
import { callOptions, isLeft, type View, type ViewContext } from './view-context.js';

/**
 * One plant: its exact id, its name and its tag. The actions below them are where changing
 * and removing a plant belong.
 */
export function plantView(idText: string, context: ViewContext): View {
  const id = PlantId.fromCanonical(idText);
  const heading = viewHeading(id instanceof PlantId ? `Plant ${id.toString()}` : 'Plant');
  const content = h('div', { class: 'plant' });
  const back = h('p', {}, h('a', { href: fragmentOf({ view: 'catalogue' }) }, 'Back to the catalogue'));
  const element = h('section', { class: 'view' }, heading, content, back);
  if (!(id instanceof PlantId)) {
    content.append(h('div', { role: 'alert', class: 'failure' }, h('p', {}, new PlantQueryError([id]).message)));
    return { element, focus: heading };
  }
  content.setAttribute('aria-busy', 'true');
  content.append(h('p', {}, 'Loading the plant…'));
  context.client.getPlant(id.value, callOptions(context)).then(
    ({ plant }) => {
      if (isLeft(context)) return;
      content.removeAttribute('aria-busy');
      content.replaceChildren(plantDetails(id, plant), plantActions());
    },
    (error: unknown) => {
      if (isLeft(context)) return;
      content.removeAttribute('aria-busy');
      content.replaceChildren(failureAlert(error, context));
    },
  );
  return { element, focus: heading };
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

/**
 * What can be done with the plant. Changing and removing it belong here: they need the plant's
 * ETag (If-Match), which the client's getPlant is to hand back beside the plant.
 */
function plantActions(): HTMLElement {
  return h('div', { class: 'plant-actions' });
}
