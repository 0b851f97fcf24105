import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { cliOutput, createTokenWithCli } from '../../../../test-support/built-cli.js';
import { tempDatabaseDir } from './support/temp-database.js';
import { errorContractProblems } from './support/contract.js';
import { exchange, postBytes, type Step, type WireResponse } from '../support/raw-exchange.js';

/**
 * docs/tokens.md: "Tokens and Authorization headers never appear in logs or error messages."
 * The built server runs with LOG_LEVEL=trace while every auth failure and error path is
 * exercised with real tokens in every place a client might put them; then its whole
 * stdout+stderr and every response body are searched for any token, token hash or
 * Authorization value.
 */
describe('secret hygiene: no token, hash or Authorization value in logs or error bodies', () => {
  const db = tempDatabaseDir('secrets');
  let server: BuiltServer;
  let writer: string;
  let revoked: string;
  let reader: string;
  const unknown = `pst_${randomBytes(32).toString('base64url')}`;
  const malformed = `tok_${randomBytes(24).toString('hex')}`;
  const responses: Array<{ what: string; response: WireResponse }> = [];
  let output = '';

  const secrets = (): string[] => {
    const tokens = [writer, revoked, reader, unknown, malformed];
    return [
      ...tokens,
      ...tokens.map((t) => t.slice(4)), // the random part alone, in case a prefix is cut off
      ...tokens.map((t) => createHash('sha256').update(t, 'utf8').digest('hex')),
      ...tokens.map((t) => `Bearer ${t}`),
      Buffer.from(`user:${writer}`).toString('base64'),
    ];
  };

  async function send(
    what: string,
    steps: Step | Step[],
    options: { deadlineMs?: number } = {},
  ): Promise<WireResponse | undefined> {
    const result = await exchange(server.url, steps, {
      deadlineMs: options.deadlineMs ?? 10_000,
      stopAfterResponses: 1,
    });
    const response = result.responses[0];
    if (response) responses.push({ what, response });
    return response;
  }

  beforeAll(async () => {
    ({ token: writer } = await createTokenWithCli(db.url, 'writer'));
    ({ token: reader } = await createTokenWithCli(db.url, 'reader', ['plants:read']));
    const gone = await createTokenWithCli(db.url, 'revoked');
    await cliOutput(db.url, ['token', 'revoke', gone.id]);
    revoked = gone.token;

    server = await startBuiltServer({
      DATABASE_URL: db.url,
      LOG_LEVEL: 'trace',
      BODY_LIMIT_BYTES: '1024',
      REQUEST_TIMEOUT_MS: '1000',
      SQLITE_BUSY_TIMEOUT_MS: '200',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
    });
    const json = 'application/json';
    const bearer = (t: string) => `Bearer ${t}`;

    // Success and every kind of refused credential.
    await send('valid', postBytes('{"id": 1, "name": "Fern"}', { authorization: bearer(writer), contentType: json }));
    await send(
      'revoked',
      postBytes('{"id": 2, "name": "Fern"}', { authorization: bearer(revoked), contentType: json }),
    );
    await send(
      'unknown',
      postBytes('{"id": 2, "name": "Fern"}', { authorization: bearer(unknown), contentType: json }),
    );
    await send(
      'malformed',
      postBytes('{"id": 2, "name": "Fern"}', { authorization: bearer(malformed), contentType: json }),
    );
    await send(
      'wrong scheme Basic',
      postBytes('{"id": 2, "name": "Fern"}', {
        authorization: `Basic ${Buffer.from(`user:${writer}`).toString('base64')}`,
        contentType: json,
      }),
    );
    await send(
      'wrong scheme Token',
      postBytes('{"id": 2, "name": "Fern"}', { authorization: `Token ${writer}`, contentType: json }),
    );
    await send(
      'query token',
      postBytes('{"id": 2, "name": "Fern"}', { path: `/plants?access_token=${writer}`, contentType: json }),
    );
    await send(
      'body access_token',
      postBytes(`{"id": 2, "name": "Fern", "access_token": "${writer}"}`, { contentType: json }),
    );
    await send(
      'form access_token',
      postBytes(`access_token=${writer}`, { contentType: 'application/x-www-form-urlencoded' }),
    );
    await send(
      'read-only scope',
      postBytes('{"id": 2, "name": "Fern"}', { authorization: bearer(reader), contentType: json }),
    );
    await send(
      'token in the path',
      postBytes('{}', { path: `/plants/${writer}`, authorization: bearer(writer), contentType: json }),
    );
    await send(
      'token in a 405 path',
      `GET /plants;${writer} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${writer}\r\nConnection: close\r\n\r\n`,
    );
    await send('token as a route parameter', `GET /docs/${writer} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    await send(
      'token in a public route query',
      `GET /healthz?token=${writer} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );

    // Error paths with a valid token, the token also in the body where it can be echoed.
    await send(
      '413',
      postBytes(`{"id": 3, "name": "${writer.repeat(40)}"}`, { authorization: bearer(writer), contentType: json }),
    );
    await send(
      '415',
      postBytes(`{"id": 3, "name": "${writer}"}`, { authorization: bearer(writer), contentType: 'text/plain' }),
    );
    await send('400 syntax', postBytes(`{"id": 3, ${writer}}`, { authorization: bearer(writer), contentType: json }));
    await send(
      '400 syntax in a string',
      postBytes(`{"id": 3, "name": "${writer}\u0001"}`, { authorization: bearer(writer), contentType: json }),
    );
    await send(
      '400 fields',
      postBytes(`{"id": "${writer}", "name": "${writer}\\u0000", "tag": "${'x'.repeat(70)}${writer}"}`, {
        authorization: bearer(writer),
        contentType: json,
      }),
    );
    await send(
      '409',
      postBytes(`{"id": 1, "name": "${writer}"}`, { authorization: bearer(writer), contentType: json }),
    );
    await send(
      '400 malformed HTTP',
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${writer}\r\nX-Bad: a\u0001b\r\nContent-Length: 2\r\n\r\n{}`,
    );
    await send(
      '431',
      postBytes('{}', {
        authorization: bearer(writer),
        contentType: json,
        extraHeaders: [['X-Pad', 'p'.repeat(20_000)]],
      }),
    );
    await send(
      '408',
      [postBytes('', { authorization: bearer(writer), contentType: json, contentLength: 50 }), '{"id": 4,'],
      { deadlineMs: 8_000 },
    );

    // 503: the database locked by another process beyond the busy timeout.
    const locker = new Database(db.path);
    locker.exec('BEGIN EXCLUSIVE');
    try {
      await send(
        '503',
        postBytes(`{"id": 5, "name": "${writer}"}`, { authorization: bearer(writer), contentType: json }),
      );
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    // 500: the table pulled from under the running server by another process.
    const saboteur = new Database(db.path);
    saboteur.exec('ALTER TABLE plant RENAME TO plant_away');
    try {
      await send(
        '500',
        postBytes(`{"id": 6, "name": "${writer}"}`, { authorization: bearer(writer), contentType: json }),
      );
    } finally {
      saboteur.exec('ALTER TABLE plant_away RENAME TO plant');
      saboteur.close();
    }
    await send(
      'valid after',
      postBytes('{"id": 7, "name": "Aloe"}', { authorization: bearer(writer), contentType: json }),
    );
    await server.stop('SIGTERM');
    output = server.output();
  }, 90_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    db.remove();
  });

  it('exercised success, every auth failure and the error paths (200, 400, 401, 403, 404, 408, 409, 413, 415, 431, 500, 503)', () => {
    const statuses = new Set(responses.map((r) => r.response.status));
    for (const status of [200, 400, 401, 403, 404, 408, 409, 413, 415, 431, 500, 503])
      expect(statuses).toContain(status);
    expect(responses.find((r) => r.what === 'query token')?.response.status).toBe(401);
    expect(responses.find((r) => r.what === 'body access_token')?.response.status).toBe(401);
    expect(responses.find((r) => r.what === 'form access_token')?.response.status).toBe(401);
    for (const { what, response } of responses.filter((r) => r.response.status >= 400))
      expect({ what, problems: errorContractProblems(response) }).toEqual({ what, problems: [] });
  });

  it('the server logged at trace level (so there was something to search)', () => {
    expect(output.length).toBeGreaterThan(0);
  });

  it('stdout and stderr contain no token, no token hash and no Authorization value', () => {
    const found = secrets().filter((secret) => output.includes(secret));
    expect(found).toEqual([]);
  });

  it('no response body or header echoes a token or a hash', () => {
    for (const { what, response } of responses) {
      const everything = `${JSON.stringify(response.headers)}\n${response.text}`;
      expect({ what, leaked: secrets().filter((secret) => everything.includes(secret)) }).toEqual({ what, leaked: [] });
    }
  });

  it('the admin CLI lists tokens without any token or hash', async () => {
    const listed =
      (await cliOutput(db.url, ['token', 'list'])) + (await cliOutput(db.url, ['token', 'list', '--json']));
    expect(listed).toContain('writer');
    expect(secrets().filter((secret) => listed.includes(secret))).toEqual([]);
  });
});
