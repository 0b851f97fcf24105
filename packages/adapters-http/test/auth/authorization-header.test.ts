import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

// How the whole adapter answers each form of the Authorization header (docs/tokens.md): the
// guard and the bearer strategy read it once, through readBearerCredentials.
describe('the Authorization header of a request', () => {
  let t: HttpTestApp;
  let token: string;

  beforeAll(async () => {
    t = await startHttpTestApp();
    token = await t.token(['plants:read']);
  });
  afterAll(() => t.app.close());

  async function readWith(headers: Record<string, string | string[]>, url = '/plants/1') {
    const response = await t.app.inject({ method: 'GET', url, headers });
    return {
      status: response.statusCode,
      code: response.json<{ error?: unknown }>().error,
      challenge: response.headers['www-authenticate'],
    };
  }

  it.each([
    ['Bearer', (tk: string) => `Bearer ${tk}`],
    ['the scheme in any case', (tk: string) => `bEARER ${tk}`],
    ['spaces and tabs around the token', (tk: string) => `Bearer \t ${tk}\t`],
  ])('authenticates the token with %s', async (_case, header) => {
    // 404 40402: past authentication, no plant 1.
    expect(await readWith({ authorization: header(token) })).toMatchObject({ status: 404, code: 40402 });
  });

  it.each([
    ['no header', {}],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['the scheme alone', { authorization: 'Bearer' }],
  ])('answers 401 40101 with a bare challenge for %s', async (_case, headers) => {
    expect(await readWith(headers)).toEqual({ status: 401, code: 40101, challenge: 'Bearer realm="plantstore"' });
  });

  it('answers 401 40102 for two words after the scheme, which is no token', async () => {
    expect(await readWith({ authorization: `Bearer ${token} extra` })).toMatchObject({ status: 401, code: 40102 });
  });

  it('answers 401 40102 for a token that was never issued', async () => {
    expect(await readWith({ authorization: `Bearer ${token.slice(0, -1)}A` })).toMatchObject({
      status: 401,
      code: 40102,
    });
  });

  it('reads no token from the query string, where passport-http-bearer would look', async () => {
    expect(await readWith({}, `/plants/1?access_token=${token}`)).toMatchObject({ status: 401, code: 40101 });
  });

  it('refuses two Authorization headers, whichever is valid', async () => {
    expect(await readWith({ authorization: [`Bearer ${token}`, `Bearer ${token}`] })).toMatchObject({
      status: 400,
      code: 40000,
    });
  });
});
