import { h, viewHeading } from '../dom.js';
import type { TokenSession } from '../token-session.js';
import type { View } from './view-context.js';

/**
 * Asks for an API token. A password field, so the token is not shown on screen; emptied once
 * the token is kept, so it is never in the page's HTML.
 */
export function tokenView(session: TokenSession, accepted: () => void): View {
  const heading = viewHeading('Use an API token');
  const input = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'token-hint',
  });
  // Present and empty from the start: a live region announces what is later written into it.
  const problem = h('p', { id: 'token-problem', class: 'problem', role: 'alert' });
  const form = h(
    'form',
    { novalidate: true },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'token' }, 'API token'),
      h(
        'p',
        { id: 'token-hint', class: 'hint' },
        'An operator makes one with ',
        h('code', {}, 'plantstore token create'),
        '. It stays in this browser tab only, until the tab closes or you choose "Forget token".',
      ),
      input,
      problem,
    ),
    h('button', { type: 'submit' }, 'Use token'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const result = session.remember(input.value);
    input.value = '';
    if (result.ok) return accepted();
    problem.textContent = result.message;
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'token-hint token-problem');
    input.focus();
  });
  const intro = h(
    'p',
    {},
    'The catalogue is read and changed with an API token: paste yours to browse the plants and add new ones.',
  );
  return { element: h('section', { class: 'view' }, heading, intro, form), focus: heading };
}
