/**
 * `/docs/` is the docs page, as people and browsers often write it: Nest registers routes
 * without their trailing slash, so the router is given `/docs` (the page links its assets by
 * absolute paths, so it works under either). Every other URL is left as it came.
 */
export function routeDocsPageAlias(url: string): string {
  if (!url.startsWith('/docs/')) return url;
  if (url === '/docs/') return '/docs';
  return url.startsWith('/docs/?') ? `/docs${url.slice('/docs/'.length)}` : url;
}
