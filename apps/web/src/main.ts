import { PageApp } from './page-app.js';
import { TokenSession } from './token-session.js';

function required<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`index.html has no #${id}`);
  return element as T;
}

const app = new PageApp(
  {
    view: required('view'),
    status: required('status'),
    signedIn: [required('views'), required('forget-token')],
    forget: required<HTMLButtonElement>('forget-token'),
  },
  new TokenSession(sessionStorage),
  location.origin,
);
window.addEventListener('hashchange', () => app.show(location.hash));
app.show(location.hash);
