import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreNetworkError,
  PlantStoreUnexpectedResponseError,
  type PlantStoreError,
} from './errors.js';
import type { components } from './generated/openapi.js';
import { idLiteral } from './plant-id.js';
import {
  DEFAULT_RETRY,
  parseRetryAfter,
  retryDelayMs,
  type AttemptFailure,
  type RetryOptions,
} from './retry-policy.js';

/** What `createPlant` sends: `id` is a bigint or a decimal string. */
export type NewPlant = components['schemas']['NewPlant'];
/** What the server answers: the stored plant, without its id. */
export type Plant = components['schemas']['Plant'];

export interface PlantStoreClientOptions {
  /** Where the API is served, e.g. `https://plants.example.com` or `http://127.0.0.1:3000/`. */
  readonly baseUrl: string | URL;
  /** An API token (`pst_…`) with the `plants:write` scope. */
  readonly token: string;
  readonly retry?: Partial<RetryOptions>;
  /** One attempt that has not been answered by then is abandoned and counts as a network failure. */
  readonly attemptTimeoutMs?: number;
  /** The fetch to use; the global one by default. */
  readonly fetch?: (input: URL, init: RequestInit) => Promise<Response>;
  /** Seams for tests: how to wait, the jitter source in [0, 1), and the clock deadlines are read from. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
}

export interface CallOptions {
  /** Aborting ends the call at once with the signal's reason; no further attempt is made. */
  readonly signal?: AbortSignal;
  /** No attempt starts, and no wait runs, past this instant (a Date or epoch milliseconds). */
  readonly deadline?: Date | number;
}

const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const BODY_EXCERPT_LENGTH = 200;

type AttemptOutcome = { readonly plant: Plant } | { readonly error: PlantStoreError; readonly failure: AttemptFailure };

/**
 * A client for the Plant Store API that works wherever `fetch` does (browsers, Node ≥ 20).
 * Ids travel exactly; every failure is a typed error; a create is retried when its outcome
 * is unknown or the server said "not now", which is safe because a repeated create with the
 * same content answers 200 and writes nothing.
 */
export class PlantStoreClient {
  private readonly plantsUrl: URL;
  private readonly retry: RetryOptions;
  private readonly attemptTimeoutMs: number;
  private readonly fetch: (input: URL, init: RequestInit) => Promise<Response>;
  private readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(private readonly options: PlantStoreClientOptions) {
    const base = String(options.baseUrl);
    this.plantsUrl = new URL('plants', base.endsWith('/') ? base : `${base}/`);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    // Called through globalThis: browsers refuse a fetch called with another `this`.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /**
   * POST /plants. Resolves with the stored plant (created now, or earlier by an identical
   * create); rejects with a PlantStoreApiError for an Error body (409 when the id holds
   * another plant), or the reason of `signal`, or a PlantStoreDeadlineError.
   */
  async createPlant(plant: NewPlant, call: CallOptions = {}): Promise<Plant> {
    const body = plantBody(plant);
    const deadline = call.deadline === undefined ? undefined : Number(call.deadline);
    let lastError: PlantStoreError | undefined;
    for (let attempt = 1; ; attempt++) {
      call.signal?.throwIfAborted();
      const remainingMs = deadline === undefined ? Infinity : deadline - this.now();
      if (remainingMs <= 0) throw deadlineError(attempt - 1, lastError);
      const outcome = await this.attempt(body, call.signal, Math.min(remainingMs, this.attemptTimeoutMs));
      if ('plant' in outcome) return outcome.plant;
      lastError = outcome.error;
      const waitMs = retryDelayMs(outcome.failure, attempt, this.retry, this.random);
      if (waitMs === undefined) throw outcome.error;
      if (deadline !== undefined && this.now() + waitMs >= deadline) throw deadlineError(attempt, outcome.error);
      await this.sleep(waitMs, call.signal);
    }
  }

  private async attempt(
    body: string,
    callerSignal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<AttemptOutcome> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(this.plantsUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : 'the connection failed';
      return {
        error: new PlantStoreNetworkError(`POST ${this.plantsUrl.href}: ${reason}`, { cause: error }),
        failure: { kind: 'network' },
      };
    }
    if (response.status === 200) {
      const plant = parsePlant(text);
      if (plant !== undefined) return { plant };
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.now());
    return {
      error: errorFrom(response.status, text, retryAfterMs),
      failure: { kind: 'status', status: response.status, retryAfterMs },
    };
  }
}

/**
 * The request body, written by hand because JSON.stringify cannot write a bigint: the id
 * goes out as a JSON number with every digit, the strings as JSON strings.
 */
function plantBody(plant: NewPlant): string {
  const members = [`"id":${idLiteral(plant.id)}`];
  if (plant.name !== undefined) members.push(`"name":${JSON.stringify(plant.name)}`);
  if (plant.tag !== undefined) members.push(`"tag":${JSON.stringify(plant.tag)}`);
  return `{${members.join(',')}}`;
}

function parsePlant(text: string): Plant | undefined {
  const value = parseJson(text);
  if (!isRecord(value) || typeof value['name'] !== 'string') return undefined;
  const tag = value['tag'];
  if (tag === undefined) return { name: value['name'] };
  return typeof tag === 'string' ? { name: value['name'], tag } : undefined;
}

function errorFrom(status: number, text: string, retryAfterMs: number | undefined): PlantStoreError {
  const value = parseJson(text);
  if (status !== 200 && isRecord(value) && Number.isInteger(value['error']) && typeof value['message'] === 'string') {
    const retryAfter = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1_000);
    return new PlantStoreApiError(status, value['error'] as number, value['message'], retryAfter);
  }
  return new PlantStoreUnexpectedResponseError(status, text.slice(0, BODY_EXCERPT_LENGTH));
}

function deadlineError(attempts: number, lastError: PlantStoreError | undefined): PlantStoreDeadlineError {
  const last = lastError === undefined ? '' : `; last failure: ${lastError.message}`;
  return new PlantStoreDeadlineError(
    `the deadline passed after ${attempts} attempt(s)${last}`,
    lastError === undefined ? undefined : { cause: lastError },
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
