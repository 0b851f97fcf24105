import request from 'supertest';

/** GET with a bearer token (none when undefined) and optional extra headers. */
export function getWithToken(
  url: string,
  token: string | undefined,
  path: string,
  headers: Record<string, string> = {},
) {
  let call = request(url).get(path);
  if (token !== undefined) call = call.set('Authorization', `Bearer ${token}`);
  for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
  return call;
}

/** The ids of a GET /plants body as exact decimal text, read from the raw JSON (JSON.parse would round them). */
export function idsIn(body: string): string[] {
  return [...body.matchAll(/"id":(-?\d+)/g)].map((match) => match[1]!);
}

/** The target of a `Link: <…>; rel="next"` header, or undefined when there is none. */
export function nextOf(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  if (match === null) throw new Error(`not a next link: ${link}`);
  return match[1];
}

/** Follows `next` from `path` until a page has none; every id seen, in order, and the pages' sizes. */
export async function walk(url: string, token: string, path: string): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  for (let next: string | undefined = path; next !== undefined;) {
    const res = await getWithToken(url, token, next);
    if (res.status !== 200) throw new Error(`GET ${next} answered ${res.status}: ${res.text}`);
    const page = idsIn(res.text);
    ids.push(...page);
    pages.push(page.length);
    next = nextOf(res.headers['link']);
  }
  return { ids, pages };
}
