import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreNetworkError,
  PlantStoreUnexpectedResponseError,
  type PlantStoreError,
} from './errors.js';
import type { components } from './generated/openapi.js';
import { idLiteral, type PlantId } from './plant-id.js';
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

/** A plant as `listPlants` yields it: its id as an exact bigint, its name, its tag when it has one. */
export interface ListedPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

/** What to list: only plants tagged with one of `tags` (all when absent), `limit` per page (1–1000, 100 by default). */
export interface ListPlantsQuery {
  readonly tags?: readonly string[];
  readonly limit?: number;
}

export interface PlantStoreClientOptions {
  /** Where the API is served, e.g. `https://plants.example.com` or `http://127.0.0.1:3000/`. */
  readonly baseUrl: string | URL;
  /** An API token (`pst_…`): `plants:write` to create, `plants:read` to get and list. */
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

/** One HTTP exchange the client makes, and how to read a successful answer (undefined: not one). */
interface Exchange<T> {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly body?: string;
  read(response: Response, text: string): T | undefined;
}

type AttemptOutcome<T> = { readonly value: T } | { readonly error: PlantStoreError; readonly failure: AttemptFailure };

interface Page {
  readonly plants: ListedPlant[];
  readonly next: URL | undefined;
}

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
    return await this.call({ method: 'POST', url: this.plantsUrl, body, read: readPlant }, call);
  }

  /**
   * GET /plants/{id}. Resolves with the plant exactly as the create answered it (no id);
   * rejects with a PlantStoreApiError, 404 (code 40402) when no plant has the id. Retried
   * like a create: a read changes nothing.
   */
  async getPlant(id: PlantId, call: CallOptions = {}): Promise<Plant> {
    const url = new URL(`plants/${idLiteral(id)}`, this.plantsUrl);
    return await this.call({ method: 'GET', url, read: readPlant }, call);
  }

  /**
   * GET /plants, every page: yields every plant (tagged with one of `tags`, when given) in
   * ascending id order, fetching the next page as the loop asks for it. A walk sees every
   * plant that existed when it began exactly once. Ids are exact bigints. `call` applies to
   * each page's request.
   */
  async *listPlants(query: ListPlantsQuery = {}, call: CallOptions = {}): AsyncGenerator<ListedPlant> {
    for await (const page of this.listPlantPages(query, call)) yield* page;
  }

  /** The same walk a page at a time: each page as the server sent it (the last may be empty). */
  async *listPlantPages(query: ListPlantsQuery = {}, call: CallOptions = {}): AsyncGenerator<ListedPlant[]> {
    let url: URL | undefined = this.listUrl(query);
    while (url !== undefined) {
      const page: Page = await this.call(
        { method: 'GET', url, read: (response, text) => this.readPage(response, text) },
        call,
      );
      yield page.plants;
      url = page.next;
    }
  }

  private listUrl(query: ListPlantsQuery): URL {
    const url = new URL(this.plantsUrl);
    for (const tag of query.tags ?? []) url.searchParams.append('tags', tag);
    if (query.limit !== undefined) {
      if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 1000)
        throw new RangeError(`limit must be a whole number from 1 to 1000 (got ${query.limit})`);
      url.searchParams.set('limit', String(query.limit));
    }
    return url;
  }

  /**
   * A page and where the next one is. Only the query of `Link: <…>; rel="next"` is taken: it
   * is applied to this client's own /plants URL, so a base path (a proxy's prefix) is kept.
   */
  private readPage(response: Response, text: string): Page | undefined {
    const plants = response.status === 200 ? parsePlantList(text) : undefined;
    if (plants === undefined) return undefined;
    const target = nextTarget(response.headers.get('link'));
    if (target === undefined) return { plants, next: undefined };
    const next = new URL(this.plantsUrl);
    next.search = new URL(target, this.plantsUrl).search;
    return { plants, next };
  }

  /** One call: attempts until an answer, retrying when the outcome is unknown or the server said "not now". */
  private async call<T>(exchange: Exchange<T>, call: CallOptions): Promise<T> {
    const deadline = call.deadline === undefined ? undefined : Number(call.deadline);
    let lastError: PlantStoreError | undefined;
    for (let attempt = 1; ; attempt++) {
      call.signal?.throwIfAborted();
      const remainingMs = deadline === undefined ? Infinity : deadline - this.now();
      if (remainingMs <= 0) throw deadlineError(attempt - 1, lastError);
      const outcome = await this.attempt(exchange, call.signal, Math.min(remainingMs, this.attemptTimeoutMs));
      if ('value' in outcome) return outcome.value;
      lastError = outcome.error;
      const waitMs = retryDelayMs(outcome.failure, attempt, this.retry, this.random);
      if (waitMs === undefined) throw outcome.error;
      if (deadline !== undefined && this.now() + waitMs >= deadline) throw deadlineError(attempt, outcome.error);
      await this.sleep(waitMs, call.signal);
    }
  }

  private async attempt<T>(
    exchange: Exchange<T>,
    callerSignal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<AttemptOutcome<T>> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(exchange.url, {
        method: exchange.method,
        headers: {
          authorization: `Bearer ${this.options.token}`,
          ...(exchange.body === undefined ? {} : { 'content-type': 'application/json' }),
          accept: 'application/json',
        },
        ...(exchange.body === undefined ? {} : { body: exchange.body }),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : 'the connection failed';
      return {
        error: new PlantStoreNetworkError(`${exchange.method} ${exchange.url.href}: ${reason}`, { cause: error }),
        failure: { kind: 'network' },
      };
    }
    const value = exchange.read(response, text);
    if (value !== undefined) return { value };
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

function readPlant(response: Response, text: string): Plant | undefined {
  return response.status === 200 ? parsePlant(text) : undefined;
}

function parsePlant(text: string): Plant | undefined {
  const value = parseJson(text);
  if (!isRecord(value) || typeof value['name'] !== 'string') return undefined;
  const tag = value['tag'];
  if (tag === undefined) return { name: value['name'] };
  return typeof tag === 'string' ? { name: value['name'], tag } : undefined;
}

// The server writes each item as `{"id":<digits>,…`: the digits are quoted before JSON.parse,
// which would round them to a double. Outside a string, `[{"id":` or `,{"id":` can only be an
// item's first member (inside one, every quote is escaped).
const ITEM_ID = /([[,]\s*\{\s*"id"\s*:\s*)(-?[0-9]+)(?=\s*[,}])/g;
const DECIMAL = /^-?[0-9]+$/;

/** A GET /plants body as plants with exact bigint ids, or undefined when it is not one. */
function parsePlantList(text: string): ListedPlant[] | undefined {
  const value = parseJson(text.replace(ITEM_ID, '$1"$2"'));
  if (!Array.isArray(value)) return undefined;
  const plants: ListedPlant[] = [];
  for (const item of value as unknown[]) {
    if (!isRecord(item)) return undefined;
    const { id, name, tag } = item;
    if (typeof id !== 'string' || !DECIMAL.test(id) || typeof name !== 'string') return undefined;
    if (tag !== undefined && typeof tag !== 'string') return undefined;
    plants.push(tag === undefined ? { id: BigInt(id), name } : { id: BigInt(id), name, tag });
  }
  return plants;
}

/** The target of the `rel="next"` member of a Link header (RFC 8288), or undefined. */
function nextTarget(link: string | null): string | undefined {
  if (link === null) return undefined;
  for (const member of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(member);
    if (match && /;\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]!)) return match[1];
  }
  return undefined;
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
