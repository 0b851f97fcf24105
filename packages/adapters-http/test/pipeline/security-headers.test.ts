import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
];
const RETIRED_HEADERS = [
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-powered-by',
  'x-xss-protection',
];

// docs/operations.md: the security headers of every answer, and none that only retired browsers read.
describe('the security headers', () => {
  let t: HttpTestApp;

  beforeAll(async () => (t = await startHttpTestApp()));
  afterAll(() => t.app.close());

  it.each([
    ['an answer', '/healthz'],
    ['an error', '/nowhere'],
    ['a refusal before authentication', '/plants/1'],
  ])('are those of docs/operations.md on %s', async (_case, url) => {
    const { headers } = await t.app.inject({ method: 'GET', url });
    expect(SECURITY_HEADERS.filter((name) => headers[name] === undefined)).toEqual([]);
    expect(RETIRED_HEADERS.filter((name) => headers[name] !== undefined)).toEqual([]);
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
