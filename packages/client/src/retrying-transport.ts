import { MalformedAnswer, readErrorBody } from './answers.js';
import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreGoneError,
  PlantStoreInputError,
  PlantStoreNetworkError,
  PlantStorePreconditionFailedError,
  PlantStoreUnexpectedResponseError,
  type PlantStoreError,
} from './errors.js';
import { describe } from './describe.js';
import { parseRetryAfter, retryDelayMs, type AttemptFailure, type RetryOptions } from './retry-policy.js';

export interface CallOptions {
  /** Aborting ends the call at once with the signal's reason; no further attempt is made. */
  readonly signal?: AbortSignal;
  /**
   * The instant (a Date or epoch milliseconds) by which the call ends: retries go on until
   * then, no attempt or wait runs past it. By default, `defaultDeadlineMs` after the call starts.
   */
  readonly deadline?: Date | number;
}

/** A call that changes a plant only if it is still the version the caller read. */
export interface ConditionalCallOptions extends CallOptions {
  /** The ETag of the version read (`getPlant`, `updatePlant`): the call answers 412 if the plant has changed since. */
  readonly ifMatch?: string;
}

/** One HTTP exchange the client makes, and how to read its successful answer. */
export interface Exchange<T> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: URL;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The status of the answer `read` reads; any other is a failure. */
  readonly successStatus: 200 | 204;
  /** The value of a successful answer; throws a MalformedAnswer when it is not one. */
  read(response: Response, text: string): T;
}

export type Fetch = (input: URL, init: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

export interface TransportSettings {
  readonly token: string;
  readonly retry: RetryOptions;
  readonly attemptTimeoutMs: number;
  readonly defaultDeadlineMs: number;
  readonly fetch: Fetch;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly now: () => number;
}

type AttemptOutcome<T> = { readonly value: T } | { readonly error: PlantStoreError; readonly failure: AttemptFailure };

const BODY_EXCERPT_LENGTH = 200;

/**
 * Sends an exchange until an answer ends it: a failure worth repeating (no answer, 408, 429,
 * 503) is retried with backoff until the call's deadline, which then ends it with a
 * PlantStoreDeadlineError. Every call of the API is safe to repeat (see retry-policy.ts).
 */
export class RetryingTransport {
  constructor(private readonly settings: TransportSettings) {}

  async send<T>(exchange: Exchange<T>, call: CallOptions): Promise<T> {
    const { now, sleep } = this.settings;
    const startedAt = now();
    const deadline = call.deadline === undefined ? startedAt + this.settings.defaultDeadlineMs : instant(call.deadline);
    const passed = `its deadline passed, ${Math.round(deadline - startedAt)} ms after the call began`;
    let attempts = 0;
    let lastFailure: PlantStoreError | undefined;
    const givingUp = (reason: string) =>
      deadlineError(describeExchange(exchange), { attempts, elapsedMs: now() - startedAt, reason }, lastFailure);

    call.signal?.throwIfAborted();
    if (deadline <= startedAt) throw givingUp('its deadline had passed before it began');
    for (;;) {
      call.signal?.throwIfAborted();
      const remainingMs = deadline - now();
      if (remainingMs <= 0) throw givingUp(passed);
      attempts++;
      const outcome = await this.attempt(exchange, call.signal, Math.min(remainingMs, this.settings.attemptTimeoutMs));
      if ('value' in outcome) return outcome.value;
      lastFailure = outcome.error;
      const waitMs = retryDelayMs(outcome.failure, attempts, this.settings.retry, this.settings.random);
      if (waitMs === undefined) throw outcome.error;
      const leftMs = deadline - now();
      if (waitMs < leftMs) {
        await sleep(waitMs, call.signal);
        continue;
      }
      const retryAfterMs = outcome.failure.kind === 'status' ? outcome.failure.retryAfterMs : undefined;
      // An attempt before the server's Retry-After would be refused again: the call ends now.
      if (retryAfterMs !== undefined && retryAfterMs >= leftMs && leftMs > 0)
        throw givingUp(
          `the server asked to wait ${retryAfterMs} ms (Retry-After), past the deadline ${Math.round(leftMs)} ms away`,
        );
      // The backoff would end past the deadline: the call uses the time it was given, then ends.
      // (A timer may fire a little before the clock reads its end: the loop waits out the rest.)
      for (let restMs = leftMs; restMs > 0; restMs = deadline - now()) await sleep(restMs, call.signal);
      throw givingUp(passed);
    }
  }

  private async attempt<T>(
    exchange: Exchange<T>,
    callerSignal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<AttemptOutcome<T>> {
    const timeout = AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs)));
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    let response: Response;
    let text: string;
    try {
      response = await this.settings.fetch(exchange.url, {
        method: exchange.method,
        headers: {
          authorization: `Bearer ${this.settings.token}`,
          accept: 'application/json',
          ...(exchange.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...exchange.headers,
        },
        ...(exchange.body === undefined ? {} : { body: exchange.body }),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const reason = timeout.aborted ? `no answer within ${Math.ceil(timeoutMs)} ms` : 'the connection failed';
      return {
        error: new PlantStoreNetworkError(`${describeExchange(exchange)}: ${reason}`, { cause: error }),
        failure: { kind: 'network' },
      };
    }
    if (response.status === exchange.successStatus) {
      try {
        return { value: exchange.read(response, text) };
      } catch (error) {
        if (!(error instanceof MalformedAnswer)) throw error;
        throw new PlantStoreUnexpectedResponseError(response.status, excerpt(text), error.message);
      }
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.settings.now());
    return {
      error: errorFrom(response.status, text, retryAfterMs),
      failure: { kind: 'status', status: response.status, retryAfterMs },
    };
  }
}

/** A deadline as epoch milliseconds; anything else is refused before any request. */
function instant(deadline: Date | number): number {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new PlantStoreInputError(`deadline is a Date or epoch milliseconds (got ${describe(deadline)})`);
  return ms;
}

/** An Error body becomes the API error of its status; anything else is not the API's answer. */
export function errorFrom(status: number, text: string, retryAfterMs: number | undefined): PlantStoreError {
  const body = status >= 400 ? readErrorBody(text) : undefined;
  if (body === undefined) return new PlantStoreUnexpectedResponseError(status, excerpt(text));
  const retryAfter = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1_000);
  const ErrorClass =
    status === 410 ? PlantStoreGoneError : status === 412 ? PlantStorePreconditionFailedError : PlantStoreApiError;
  return new ErrorClass(status, body.code, body.message, retryAfter);
}

interface GivingUp {
  readonly attempts: number;
  readonly elapsedMs: number;
  readonly reason: string;
}

function deadlineError(
  exchange: string,
  { attempts, elapsedMs, reason }: GivingUp,
  lastFailure: PlantStoreError | undefined,
): PlantStoreDeadlineError {
  const tried = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  const last = lastFailure === undefined ? '' : ` The last failure: ${lastFailure.message}`;
  return new PlantStoreDeadlineError(
    `${exchange} gave up after ${Math.round(elapsedMs)} ms and ${tried}: ${reason}.${last}`,
    attempts,
    elapsedMs,
    lastFailure === undefined ? undefined : { cause: lastFailure },
  );
}

function describeExchange(exchange: Exchange<unknown>): string {
  return `${exchange.method} ${exchange.url.href}`;
}

/** The start of a body, for an error's message and the log. */
export function excerpt(text: string): string {
  return text.slice(0, BODY_EXCERPT_LENGTH);
}
