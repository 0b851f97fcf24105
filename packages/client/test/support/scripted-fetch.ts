import { PlantStoreClient, type PlantStoreClientOptions } from '../../src/index.js';

/**
 * The client against a scripted fetch: each attempt takes the next step of the script. Waits
 * are recorded, never slept, and move the test's clock; an attempt may move it too. The jitter
 * is set by the test.
 */
export type Step = (init: RequestInit) => Response | Promise<Response>;

export interface Sent {
  readonly url: string;
  readonly init: RequestInit;
}

export interface Clock {
  now: number;
}

/** A token of the shape the server issues (`pst_` and 43 base64url characters); the client refuses any other. */
export const TEST_TOKEN = `pst_${'T'.repeat(43)}`;

export function scripted(
  steps: readonly Step[],
  overrides: Partial<PlantStoreClientOptions> = {},
  clock: Clock = { now: 1_000_000 },
) {
  const sent: Sent[] = [];
  const waits: number[] = [];
  const client = new PlantStoreClient({
    baseUrl: 'https://plants.example/api',
    token: TEST_TOKEN,
    retry: { baseDelayMs: 100, maxDelayMs: 1_000 },
    fetch: async (url, init) => {
      sent.push({ url: url.href, init });
      const step = steps[sent.length - 1];
      if (step === undefined) throw new Error(`unexpected attempt ${sent.length}`);
      return step(init);
    },
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      // A script that ran out would otherwise be retried as a network failure until the deadline.
      if (sent.length > steps.length)
        throw new Error(`the script has ${steps.length} steps; attempt ${sent.length} was made`);
      waits.push(ms);
      clock.now += ms;
    },
    random: () => 0.5,
    now: () => clock.now,
    ...overrides,
  });
  return { client, sent, waits, clock };
}

/** The headers an attempt sent, whatever form they were given in. */
export function headersOf(sent: Sent): Headers {
  return new Headers(sent.init.headers);
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    });

export const text =
  (status: number, body: string, headers: Record<string, string> = {}): Step =>
  () =>
    new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

export const ok = (name = 'Fern', headers: Record<string, string> = {}) => json(200, { name }, headers);

export const apiError = (
  status: number,
  code: number,
  message = `failure ${code}`,
  headers: Record<string, string> = {},
): Step => json(status, { error: code, message }, headers);

export const connectionRefused: Step = () => Promise.reject(new TypeError('fetch failed'));

/** A step whose attempt takes `ms` on the test's clock before it fails as a refused connection. */
export const refusedAfter =
  (clock: Clock, ms: number): Step =>
  () => {
    clock.now += ms;
    return Promise.reject(new TypeError('fetch failed'));
  };

export const noContent: Step = () => new Response(null, { status: 204 });

/** The same step, `count` times. */
export function times(count: number, step: Step): Step[] {
  return Array.from({ length: count }, () => step);
}
