import { describe } from './describe.js';
import { PlantStoreInputError } from './errors.js';
import { DEFAULT_RETRY, type RetryOptions } from './retry-policy.js';
import type { Fetch, Sleep, TransportSettings } from './retrying-transport.js';

export interface PlantStoreClientOptions {
  /** Where the API is served, e.g. `https://plants.example.com` or `http://127.0.0.1:3000/`. */
  readonly baseUrl: string | URL;
  /** An API token (`pst_` and 43 letters, digits, `-` or `_`): `plants:write` to create, change and delete, `plants:read` to read. */
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

// The shape of every API token the server issues: `pst_` and 32 random bytes in base64url. The
// server refuses any other without looking it up; the client says so before a request is sent.
const API_TOKEN = /^pst_[A-Za-z0-9_-]{43}$/;

/** The options a client takes; any other (a removed one, a typo) is refused, not ignored. */
const OPTIONS: ReadonlySet<string> = new Set([
  'baseUrl',
  'token',
  'retry',
  'attemptTimeoutMs',
  'defaultDeadlineMs',
  'fetch',
  'sleep',
  'random',
  'now',
]);
const RETRY_OPTIONS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_RETRY));

/** Options that existed once, and what replaced them. */
const REMOVED: Readonly<Record<string, string>> = {
  'retry.maxAttempts':
    'retry.maxAttempts was removed in 2.0.0: a call retries until its deadline; give the call a `deadline`, or the client `defaultDeadlineMs`',
  'retry.maxRetryAfterMs':
    "retry.maxRetryAfterMs was removed in 2.0.0: a Retry-After that ends past the call's deadline ends the call at once; give the call a `deadline`, or the client `defaultDeadlineMs`",
};

/** What a client sends to, and how its transport behaves: its options checked, defaults filled in. */
export function clientSettings(options: PlantStoreClientOptions): { plantsUrl: URL; transport: TransportSettings } {
  if (typeof options !== 'object' || options === null)
    throw new PlantStoreInputError(`a client is made with options { baseUrl, token } (got ${describe(options)})`);
  refuseUnknown(options, OPTIONS, '');
  if (typeof options.token !== 'string' || !API_TOKEN.test(options.token))
    throw new PlantStoreInputError(
      options.token === ''
        ? 'token is empty: give an API token (pst_…), made with `plantstore token create`'
        : 'token is not an API token: `pst_` and 43 letters, digits, - or _, whole, as `plantstore token create` prints it',
    );
  if (options.retry !== undefined) {
    if (typeof options.retry !== 'object' || options.retry === null)
      throw new PlantStoreInputError(
        `retry is an object { baseDelayMs?, maxDelayMs? } (got ${describe(options.retry)})`,
      );
    refuseUnknown(options.retry, RETRY_OPTIONS, 'retry.');
  }
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

/** JavaScript callers get no type check: an option the client does not know would silently do nothing. */
function refuseUnknown(options: object, known: ReadonlySet<string>, prefix: string): void {
  for (const key of Object.keys(options)) {
    const name = prefix + key;
    if (known.has(key)) continue;
    throw new PlantStoreInputError(
      REMOVED[name] ??
        `${name} is not an option of the client (it takes ${[...known].map((k) => prefix + k).join(', ')})`,
    );
  }
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
