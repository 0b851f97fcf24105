import { h, viewHeading } from '../dom.js';
import { checkPlantForm } from '../plant-form.js';
import { randomPlantId } from '../random-plant-id.js';
import { failureAlert } from './failure-alert.js';
import { field, showCheck } from './plant-fields.js';
import { callOptions, isLeft, type View, type ViewContext } from './view-context.js';

/**
 * The form that adds a plant. It is checked with the domain's rules first: an invalid plant is
 * never sent, and its problems are told in the words the server would use. The id is the
 * person's to choose; a random one is offered.
 */
export function newPlantView(context: ViewContext): View {
  const heading = viewHeading('Add a plant');
  const another = h('button', { type: 'button', class: 'secondary' }, 'Offer another id');
  const id = field(
    'id',
    'Id',
    'A whole number that will identify the plant for good. A random one is offered.',
    another,
  );
  id.input.value = randomPlantId().toString();
  id.input.setAttribute('inputmode', 'numeric');
  another.addEventListener('click', () => {
    id.input.value = randomPlantId().toString();
    context.announce(`New id offered: ${id.input.value}.`);
  });
  const name = field('name', 'Name', undefined);
  name.input.setAttribute('aria-required', 'true');
  const tag = field('tag', 'Tag (optional)', 'Leave it empty for a plant without a tag.');
  const summary = h('div', { class: 'summary', role: 'alert' });
  const submit = h('button', { type: 'submit' }, 'Add plant');
  const form = h('form', { novalidate: true }, id.block, name.block, tag.block, summary, submit);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    const checked = checkPlantForm({ id: id.input.value, name: name.input.value, tag: tag.input.value });
    if (!showCheck({ id, name, tag }, summary, checked)) return;
    submit.disabled = true;
    const plantId = checked.plant.id.toString();
    context.announce(`Adding plant ${plantId}…`);
    context.client.createPlant(checked.plant, callOptions(context)).then(
      () => {
        context.catalogueChanged();
        if (isLeft(context)) return;
        context.go({ view: 'plant', id: plantId }, `Plant ${plantId} was added.`);
      },
      (error: unknown) => {
        if (isLeft(context)) return;
        submit.disabled = false;
        context.announce('');
        summary.replaceChildren(failureAlert(error, context));
      },
    );
  });
  return { element: h('section', { class: 'view' }, heading, form), focus: heading };
}
