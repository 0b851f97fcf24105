import type {
  Clock,
  PlantChangeFeed,
  PlantChangeRepository,
  PlantReader,
  PlantRepository,
  TokenRepository,
  TokenSecrets,
} from '@plantstore/domain';
import type { FeedLagReading } from './feed-lag.js';
import type { LimiterStorage } from './limiter-storage.js';
import type { OutboxStatus } from './outbox-status.js';

/** DI tokens inside the HTTP adapter: its options, and the use cases it builds from them. */
export const HTTP_OPTIONS = Symbol('HttpOptions');
export const CREATE_PLANT = Symbol('CreatePlant');
export const GET_PLANT = Symbol('GetPlant');
export const LIST_PLANTS = Symbol('ListPlants');
export const CHANGE_PLANT = Symbol('ChangePlant');
export const REMOVE_PLANT = Symbol('RemovePlant');
export const AUTHENTICATE_TOKEN = Symbol('AuthenticateToken');
export const FOLLOW_CHANGES = Symbol('FollowChanges');

/** Answers when the store can serve requests; rejects when it cannot. */
export interface ReadinessProbe {
  ping(): Promise<void>;
}

/** What an app hands the HTTP adapter (PlantStoreHttpModule.forRootAsync): the ports it serves, and its limits. */
export interface HttpOptions {
  /** Where plants are created, read, changed and deleted. */
  readonly plants: PlantRepository & PlantReader & PlantChangeRepository;
  /** The store's change feed, served by GET /plants/changes (docs/changes.md). */
  readonly changes: PlantChangeFeed;
  /** How far the feed is behind the store's commits, for the metrics (read at scrape time); no metric when absent. */
  readonly feedLag?: (() => Promise<FeedLagReading>) | undefined;
  readonly tokens: TokenRepository;
  /** How the tokens' secrets are kept: the hash a presented token is looked up by. */
  readonly tokenSecrets: TokenSecrets;
  /** Readiness: the store answers. */
  readonly readiness: ReadinessProbe;
  /** The system clock when absent. */
  readonly clock?: Clock | undefined;
  /** Largest accepted request body, in bytes (docs/http-api.md#limits: 64 KiB by default). */
  readonly bodyLimitBytes: number;
  /** Requests per token per minute; 0 turns the limit off. */
  readonly rateLimitPerMinute: number;
  /** Requests in progress at once (health probes aside); past it, 503 at once. */
  readonly maxRequestsInFlight: number;
  /** Of those, what one client (a credential, else an address) may hold; past it, 429 at once. */
  readonly maxRequestsInFlightPerClient: number;
  /** Change streams (GET /plants/changes as text/event-stream) open at once; past it, 503. */
  readonly maxChangeStreams: number;
  /** How often the change streams' one reader asks the store for new changes, in ms. */
  readonly changeStreamTickMs: number;
  /** Failed authentications per client address per minute before it gets 429s. */
  readonly authFailuresPerMinute: number;
  /** Counter storage for the limits, to share them between instances; in memory when absent. */
  readonly limiterStorage?: LimiterStorage | undefined;
  /** The plant events' outbox and relay, for the metrics; absent when no relay runs. */
  readonly outbox?: OutboxStatus | undefined;
}
