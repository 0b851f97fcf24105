import request from 'supertest';
import { nodeTokenSecrets, TypeOrmTokenRepository } from '@plantstore/adapters-persistence';
import { REVOCATION_BOUND_MS } from '@plantstore/domain';
import { postPlant, JSON_UTF8 } from './support/plant-requests.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

const BODY = '{"id": 1, "name": "Fern"}';
const MISSING = {
  error: 40101,
  message: 'Send an API token in the Authorization header: "Authorization: Bearer <token>".',
};
const INVALID = {
  error: 40102,
  message: 'The bearer token is malformed, unknown, expired or revoked; ask an administrator for a valid token.',
};
const CHALLENGE = 'Bearer realm="plantstore"';
const INVALID_CHALLENGE = 'Bearer realm="plantstore", error="invalid_token"';

describe.each(testEngines())('POST /plants: bearer authentication ($name)', (engine) => {
  const t = useTestApp({}, engine);

  async function expectRefused(
    authorization: string | undefined,
    expected: object,
    challenge: string,
    body = BODY,
    path = '/plants',
  ) {
    let call = request(t.url).post(path).set('Content-Type', 'application/json');
    if (authorization !== undefined) call = call.set('Authorization', authorization);
    const res = await call.send(body);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toBe(JSON_UTF8);
    expect(res.headers['www-authenticate']).toBe(challenge);
    expect(res.body).toEqual(expected);
    expect(await t.plants()).toEqual([]);
  }

  it('401/40101 without an Authorization header, with no error attribute', () =>
    expectRefused(undefined, MISSING, CHALLENGE));
  it('401/40101 for another scheme', () =>
    expectRefused(`Basic ${Buffer.from('a:b').toString('base64')}`, MISSING, CHALLENGE));
  // RFC 6750 §3.1: the scheme alone presents no credential, so the challenge has no error attribute.
  it.each(['Bearer', 'bearer'])('401/40101 for "%s" with no token, with no error attribute', (authorization) =>
    expectRefused(authorization, MISSING, CHALLENGE),
  );
  it('401/40102 for a malformed bearer value', () =>
    expectRefused(`Bearer ${t.token} extra`, INVALID, INVALID_CHALLENGE));
  it('401/40102 for a token of the wrong shape', () => expectRefused('Bearer not-a-token', INVALID, INVALID_CHALLENGE));
  it('401/40102 for an unknown token of the right shape', () =>
    expectRefused(`Bearer ${nodeTokenSecrets.generateToken()}`, INVALID, INVALID_CHALLENGE));

  it('401/40102 for an expired token', async () => {
    const expired = nodeTokenSecrets.generateToken();
    await new TypeOrmTokenRepository(t.dataSource).add({
      id: 'expired-token',
      name: 'expired',
      hash: await nodeTokenSecrets.hash(expired),
      scopes: ['plants:write'],
      createdAt: new Date(Date.now() - 60_000),
      expiresAt: new Date(Date.now() - 1_000),
      revokedAt: undefined,
    });
    await expectRefused(`Bearer ${expired}`, INVALID, INVALID_CHALLENGE);
  });

  it('401/40102 for a revoked token, which worked before revocation', async () => {
    const issued = await t.issueToken();
    const before = await postPlant(t.url, issued.token, '{"id": 99, "name": "before revocation"}');
    expect(before.status).toBe(200);
    await t.dataSource.query('DELETE FROM plant');
    // Revoked the way the CLI does it, through the store: the server learns within its bound.
    await t.revokeToken(issued.id);
    const deadline = Date.now() + REVOCATION_BOUND_MS + 1_000;
    let status = 0;
    while (Date.now() < deadline) {
      // An invalid body: while the token is still accepted this is a 400 and stores nothing.
      status = (await postPlant(t.url, issued.token, '{')).status;
      if (status === 401) break;
      await new Promise((wait) => setTimeout(wait, 100));
    }
    expect(status).toBe(401);
    await expectRefused(`Bearer ${issued.token}`, INVALID, INVALID_CHALLENGE);
  });

  it('403/40301 for a valid token without the plants:write scope', async () => {
    const reader = await t.issueToken({ scopes: ['plants:read'] });
    const res = await postPlant(t.url, reader.token, BODY);
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", scope="plants:write"',
    );
    expect(res.body).toEqual({
      error: 40301,
      message: 'This token lacks the "plants:write" scope needed for this operation.',
    });
    expect(await t.plants()).toEqual([]);
  });

  it('accepts the scheme in any case ("bearer", "BEARER")', async () => {
    for (const [scheme, id] of [
      ['bearer', 201],
      ['BEARER', 202],
    ] as const) {
      const res = await request(t.url)
        .post('/plants')
        .set('Authorization', `${scheme} ${t.token}`)
        .set('Content-Type', 'application/json')
        .send(`{"id": ${id}, "name": "case"}`);
      expect(res.status).toBe(200);
    }
    await t.dataSource.query('DELETE FROM plant');
  });

  it('does not accept a token in the query string', () =>
    expectRefused(undefined, MISSING, CHALLENGE, BODY, `/plants?access_token=${encodeURIComponent(t.token)}`));

  it('does not accept a token in the body', () =>
    expectRefused(undefined, MISSING, CHALLENGE, JSON.stringify({ id: 1, name: 'Fern', access_token: t.token })));

  it('treats a body access_token as an ignored extra property when the header is valid', async () => {
    const res = await postPlant(t.url, t.token, JSON.stringify({ id: 300, name: 'Ivy', access_token: 'whatever' }));
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"name":"Ivy"}');
    await t.dataSource.query('DELETE FROM plant');
  });

  describe('authentication comes before the body: an unauthenticated caller learns nothing about it', () => {
    it.each([
      ['malformed JSON', 'application/json', '{"id":'],
      ['an invalid plant', 'application/json', '{"id": "x"}'],
      ['a wrong media type', 'text/plain', 'hello'],
      ['a body over the limit', 'application/json', `{"name": "${'x'.repeat(100_000)}"}`],
    ])('401 for %s', async (_case, contentType, body) => {
      const res = await request(t.url).post('/plants').set('Content-Type', contentType).send(body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(MISSING);
    });
  });
});
