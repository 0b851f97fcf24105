import { h } from '../dom.js';
import { describeFailure, TOKEN_PROBLEM_HEADLINES } from '../failure-text.js';
import { deletedState } from './deleted-state.js';
import type { ViewContext } from './view-context.js';

/**
 * A failure, announced as an alert: the catalogue's sentence, and for a token problem which one
 * it is and a way to paste another token. A deleted plant is no failure: it shows as its state.
 */
export function failureAlert(error: unknown, context: ViewContext): HTMLElement {
  const { message, tokenProblem, plantState } = describeFailure(error);
  if (plantState === 'deleted') return deletedState(message).element;
  const alert = h('div', { role: 'alert', class: 'failure' });
  if (tokenProblem === undefined) {
    alert.append(h('p', {}, message));
    return alert;
  }
  const another = h('button', { type: 'button' }, 'Use another token');
  another.addEventListener('click', () => context.useAnotherToken());
  alert.append(h('p', { class: 'headline' }, TOKEN_PROBLEM_HEADLINES[tokenProblem]), h('p', {}, message), another);
  return alert;
}
