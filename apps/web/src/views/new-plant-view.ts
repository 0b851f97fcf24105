import { h, viewHeading } from '../dom.js';
import { checkPlantForm, type PlantField } from '../plant-form.js';
import { randomPlantId } from '../random-plant-id.js';
import { failureAlert } from './failure-alert.js';
import { callOptions, isLeft, type View, type ViewContext } from './view-context.js';

/** One input with its label, its hint and the place its problem is told. */
interface Field {
  readonly input: HTMLInputElement;
  readonly problem: HTMLElement;
  readonly hintId: string | undefined;
  readonly block: HTMLElement;
}

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
  const fields: Record<PlantField, Field> = { id, name, tag };
  const summary = h('div', { class: 'summary', role: 'alert' });
  const submit = h('button', { type: 'submit' }, 'Add plant');
  const form = h('form', { novalidate: true }, id.block, name.block, tag.block, summary, submit);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    const checked = checkPlantForm({ id: id.input.value, name: name.input.value, tag: tag.input.value });
    for (const [key, each] of Object.entries(fields) as [PlantField, Field][])
      markProblem(each, checked.ok ? undefined : checked.problems.get(key));
    if (!checked.ok) {
      summary.replaceChildren(h('p', {}, checked.sentence));
      const first = (['id', 'name', 'tag'] as const).find((key) => checked.problems.has(key));
      fields[first ?? 'name'].input.focus();
      return;
    }
    summary.replaceChildren();
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

function field(key: PlantField, label: string, hint: string | undefined, ...controls: HTMLElement[]): Field {
  const inputId = `plant-${key}`;
  const hintId = hint === undefined ? undefined : `${inputId}-hint`;
  const input = h('input', {
    id: inputId,
    name: key,
    type: 'text',
    autocomplete: 'off',
    spellcheck: key === 'id' ? 'false' : undefined,
    'aria-describedby': hintId,
  });
  const problem = h('p', { id: `${inputId}-problem`, class: 'problem' });
  const block = h(
    'div',
    { class: 'field' },
    h('label', { for: inputId }, label),
    hint === undefined ? undefined : h('p', { id: hintId!, class: 'hint' }, hint),
    h('div', { class: 'control' }, input, ...controls),
    problem,
  );
  return { input, problem, hintId, block };
}

/** Shows or clears a field's problem, and says it with the field: aria-invalid and aria-describedby. */
function markProblem(each: Field, message: string | undefined): void {
  each.problem.textContent = message ?? '';
  const describedBy = [each.hintId, message === undefined ? undefined : each.problem.id].filter(Boolean).join(' ');
  if (describedBy === '') each.input.removeAttribute('aria-describedby');
  else each.input.setAttribute('aria-describedby', describedBy);
  if (message === undefined) each.input.removeAttribute('aria-invalid');
  else each.input.setAttribute('aria-invalid', 'true');
}
