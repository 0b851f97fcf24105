import { describe } from './describe.js';
import { PlantStoreInputError } from './errors.js';
import { DEFAULT_RETRY, type RetryOptions } from './retry-policy.js';
import type { Fetch, Sleep, TransportSettings } from './retrying-transport.js';

export interface PlantStoreClientOptions {
  /** Where the API is served, e.g. `https://plants.example.com` or `http://127.0.0.1:3000/`. */
  readonly baseUrl: string | URL;
  /** An API token (`pst_…`): `plants:write` to create, change and delete, `plants:read` to get and list. */
  readonly token: string;
  readonly retry?: Partial<RetryOptions>;
  /** One attempt that has not been answered by then is abandoned and counts as a network failure. */
  readonly attemptTimeoutMs?: number;
  /** How long a call without a `deadline` of its own keeps trying, waits included. */
  readonly defaultDeadlineMs?: number;
  /** The fetch to use; the global one by default. */
  readonly fetch?: Fetch;
  /** Seams for tests: how to wait, the jitter source in [0, 1), and the clock deadlines are read from. */
  readonly sleep?: Sleep;
  readonly random?: () => number;
  readonly now?: () => number;
}

export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
export const DEFAULT_DEADLINE_MS = 30_000;

// An RFC 6750 b64token: what a Bearer credential may be, and what a header can carry.
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What a client sends to, and how its transport behaves: its options checked, defaults filled in. */
export function clientSettings(options: PlantStoreClientOptions): { plantsUrl: URL; transport: TransportSettings } {
  if (typeof options !== 'object' || options === null)
    throw new PlantStoreInputError(`a client is made with options { baseUrl, token } (got ${describe(options)})`);
  if (typeof options.token !== 'string' || !BEARER_TOKEN.test(options.token))
    throw new PlantStoreInputError(
      options.token === ''
        ? 'token is empty: give an API token (pst_…), made with `plantstore token create`'
        : 'token is not an API token: letters, digits and -._~+/ only, as `plantstore token create` prints it',
    );
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  return {
    plantsUrl: plantsUrl(options.baseUrl),
    transport: {
      token: options.token,
      retry: {
        baseDelayMs: milliseconds('retry.baseDelayMs', retry.baseDelayMs, 0),
        maxDelayMs: milliseconds('retry.maxDelayMs', retry.maxDelayMs, 0),
      },
      attemptTimeoutMs: milliseconds('attemptTimeoutMs', options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS, 1),
      defaultDeadlineMs: milliseconds('defaultDeadlineMs', options.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS, 1),
      // Called through globalThis: browsers refuse a fetch called with another `this`.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    },
  };
}

/** `{baseUrl}/plants`; a base URL fetch could not use is refused when the client is made. */
function plantsUrl(baseUrl: string | URL): URL {
  let base: URL;
  try {
    base = new URL(String(baseUrl));
  } catch {
    throw new PlantStoreInputError(
      `baseUrl is an absolute URL such as https://plants.example.com (got ${describe(String(baseUrl))})`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new PlantStoreInputError(`baseUrl is an http: or https: URL (got ${base.protocol})`);
  // fetch refuses a URL with credentials; the token is the only credential sent.
  if (base.username !== '' || base.password !== '')
    throw new PlantStoreInputError('baseUrl must not hold a user name or password: the token is the credential');
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return new URL('plants', base);
}

function milliseconds(name: string, value: number, least: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < least)
    throw new PlantStoreInputError(`${name} is a number of milliseconds from ${least} up (got ${describe(value)})`);
  return value;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    // An abort rejects with the signal's own reason, whatever it is, as fetch does.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
