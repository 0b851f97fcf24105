import type { AuthenticationFailure } from '@plantstore/domain';

/**
 * Why a request was refused before it reached its handler: the domain's reasons for a
 * presented token, and the HTTP layer's own (no credentials, a missing scope, an address
 * throttled after too many failures). The label values of `plantstore_auth_failures_total`.
 */
export type AuthFailureReason = AuthenticationFailure | 'missing' | 'insufficient_scope' | 'throttled';

/** What became of a create that reached the store. */
export type PlantOutcome = 'created' | 'replayed' | 'conflict' | 'retired';

/** What became of a change (PUT) or a deletion (DELETE) of a plant that reached the store. */
export type PlantChangeOutcome =
  | {
      readonly operation: 'replace';
      readonly outcome: 'changed' | 'unchanged' | 'precondition-failed' | 'not-found' | 'deleted';
    }
  | {
      readonly operation: 'remove';
      readonly outcome: 'removed' | 'already-removed' | 'precondition-failed' | 'not-found';
    };

/** Why a change stream ended: its follower left, its token no longer reads, it read too slowly, the store failed, the server stops. */
export type ChangeStreamEnd = 'client-closed' | 'token-refused' | 'slow-follower' | 'store-failed' | 'shutdown';

/**
 * What happened to a request, told by the part of the pipeline that saw it: the guards, the
 * filter, the load shedding, the handlers. They say what happened and nothing more; the
 * metrics (observability/plant-store-metrics.ts) listen. Nothing here may throw or wait: it
 * runs on every request's path.
 */
export interface HttpEvents {
  requestCompleted(method: string, route: string, status: number, seconds: number): void;
  plantOutcome(outcome: PlantOutcome): void;
  plantChanged(change: PlantChangeOutcome): void;
  authFailure(reason: AuthFailureReason): void;
  /** A 503 because the store could not answer. */
  databaseUnavailable(): void;
  /** A 503 at once: MAX_REQUESTS_IN_FLIGHT reached. */
  requestShed(): void;
  /** A 429 at once: the client's MAX_REQUESTS_IN_FLIGHT_PER_CLIENT reached. */
  requestOverClientShare(): void;
  /** A 500. */
  internalError(): void;
  /** A change stream began (its 200 was sent). */
  changeStreamOpened(): void;
  changeStreamEnded(reason: ChangeStreamEnd): void;
  /** A 503 at once: MAX_CHANGE_STREAMS open. */
  changeStreamRefused(): void;
  /** Entries written to change streams (one per entry per stream) or in JSON pages. */
  changesSent(count: number): void;
}

/** Where HttpEvents are injected; PlantStoreHttpModule binds the metrics to it. */
export const HTTP_EVENTS = Symbol('HttpEvents');
