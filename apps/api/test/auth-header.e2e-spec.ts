import { expectErrorContract } from './adversarial/support/contract.js';
import { exchange, postBytes } from './support/raw-exchange.js';
import { useTestApp } from './support/test-app.js';

/**
 * The Authorization header as RFC 7235/6750 write it: one or more spaces (we also take tabs)
 * between `Bearer` and the token. Two Authorization headers are ambiguous (Node keeps the
 * first, a proxy may keep the last): refused, and not counted as a failed token guess.
 */
describe('the Authorization header', () => {
  // A tight failed-auth limit shows which refusals count as guesses.
  const t = useTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '2' });
  let nextId = 1;

  async function create(headers: ReadonlyArray<readonly [string, string]>) {
    const id = nextId++;
    const request = postBytes(`{"id": ${id}, "name": "auth ${id}"}`, {
      contentType: 'application/json',
      extraHeaders: headers,
    });
    const { responses } = await exchange(t.url, request, { deadlineMs: 10_000 });
    return { response: responses[0]!, stored: (await t.plants()).some((p) => p.id === String(id)) };
  }

  it.each([
    ['two spaces', (token: string) => `Bearer  ${token}`],
    ['a tab', (token: string) => `Bearer\t${token}`],
    ['several spaces and trailing white space', (token: string) => `bearer    ${token}  `],
  ])('accepts the token after %s', async (_kind, header) => {
    const { response, stored } = await create([['Authorization', header(t.token)]]);
    expect(response.status).toBe(200);
    expect(stored).toBe(true);
  });

  it('refuses two Authorization headers with 400/40000 and invalid_request, stores nothing, and does not count it as a failed guess', async () => {
    for (let i = 0; i < 3; i++) {
      const { response, stored } = await create([
        ['Authorization', `Bearer ${t.token}`],
        ['Authorization', `Bearer ${t.token}`],
      ]);
      expect(response.status).toBe(400);
      expect(expectErrorContract(response)).toBe(40000);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="plantstore", error="invalid_request"');
      expect(JSON.parse(response.text).message).toBe(
        'Send exactly one Authorization header: "Authorization: Bearer <token>".',
      );
      expect(stored).toBe(false);
    }
    // Three refusals past a limit of two guesses, and the address is still not throttled.
    const { response } = await create([['Authorization', `Bearer ${t.token}`]]);
    expect(response.status).toBe(200);
  });
});
