import { h } from '../dom.js';
import type { PlantField, PlantFormRefusal } from '../plant-form.js';

/** One input with its label, its hint and the place its problem is told. */
export interface Field {
  readonly input: HTMLInputElement;
  readonly problem: HTMLElement;
  readonly hintId: string | undefined;
  readonly block: HTMLElement;
}

/** The fields of a plant form, in the order the domain reports their problems. */
export type Fields = Partial<Record<PlantField, Field>>;

const FIELD_ORDER: readonly PlantField[] = ['id', 'name', 'tag'];

export function field(key: PlantField, label: string, hint: string | undefined, ...controls: HTMLElement[]): Field {
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

/**
 * Shows the domain's verdict on a form: each field's problem beside it, the server's sentence
 * in the summary (an alert), and the focus on the first field refused. True when it may be sent.
 */
export function showCheck<Accepted extends { readonly ok: true }>(
  fields: Fields,
  summary: HTMLElement,
  check: Accepted | PlantFormRefusal,
): check is Accepted {
  for (const key of FIELD_ORDER) {
    const each = fields[key];
    if (each !== undefined) markProblem(each, check.ok ? undefined : check.problems.get(key));
  }
  if (check.ok) {
    summary.replaceChildren();
    return true;
  }
  summary.replaceChildren(h('p', {}, check.sentence));
  const first = FIELD_ORDER.find((key) => check.problems.has(key) && fields[key] !== undefined) ?? 'name';
  fields[first]?.input.focus();
  return false;
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
