import type { OutboxStatus } from './outbox-status.js';
import type { LimiterStorage } from './limiter-storage.js';

/** DI tokens for what the composition root provides to the HTTP adapter. */
export const CREATE_PLANT = Symbol('CreatePlant');
export const GET_PLANT = Symbol('GetPlant');
export const LIST_PLANTS = Symbol('ListPlants');
export const AUTHENTICATE_TOKEN = Symbol('AuthenticateToken');
export const HTTP_OPTIONS = Symbol('HttpOptions');
export const READINESS_PROBE = Symbol('ReadinessProbe');

/** Answers when the store can serve requests; rejects when it cannot. */
export interface ReadinessProbe {
  ping(): Promise<void>;
}

export interface HttpOptions {
  /** Largest accepted request body, in bytes (docs/http-api.md#limits: 64 KiB by default). */
  readonly bodyLimitBytes: number;
  /** Requests per token per minute on POST /plants; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** Requests in progress at once (health probes aside); past it, 503 at once. */
  readonly maxRequestsInFlight: number;
  /** Of those, what one client (a credential, else an address) may hold; past it, 429 at once. */
  readonly maxRequestsInFlightPerClient: number;
  /** Failed authentications per client address per minute before it gets 429s. */
  readonly authFailuresPerMinute: number;
  /** Counter storage for the limits; in memory when absent (one instance only). */
  readonly limiterStorage?: LimiterStorage | undefined;
  /** The PlantCreated outbox and its relay, for the metrics; absent when no relay runs. */
  readonly outbox?: OutboxStatus | undefined;
}
