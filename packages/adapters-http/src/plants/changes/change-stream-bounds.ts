/** What bounds the change streams of one instance (docs/changes.md states each). */
export interface ChangeStreamBounds {
  /** A comment line after this long without an event keeps proxies from closing the stream. */
  readonly heartbeatMs: number;
  /** Bytes a stream may hold that its follower has not taken (and one page more); past it the follower reads too slowly and its stream ends. */
  readonly maxBufferedBytes: number;
  /** How often each stream's token is checked again: revocation (with the token cache) and expiry end it within 5 s. */
  readonly tokenRecheckMs: number;
  /** Entries per read of the store, a stream's catch-up and the hub's tick alike. */
  readonly pageSize: number;
  /** How long a stream catching up waits for its follower to take what was written. */
  readonly drainTimeoutMs: number;
}

export const CHANGE_STREAM_BOUNDS: ChangeStreamBounds = {
  heartbeatMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  tokenRecheckMs: 1_000,
  pageSize: 1_000,
  drainTimeoutMs: 30_000,
};

/** MAX_CHANGE_STREAMS when unset. */
export const DEFAULT_MAX_CHANGE_STREAMS = 1_000;
/** CHANGE_STREAM_TICK_MS when unset: changes reach the streams well within the contract's second. */
export const DEFAULT_CHANGE_STREAM_TICK_MS = 250;
