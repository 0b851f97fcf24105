import { PlantStoreApiError, type PlantFeedChange, type PlantStoreClient } from '@plantstore/client';

/** How long the page waits before following again when the client gave up (a long outage). */
const FOLLOW_AGAIN_AFTER_MS = 10_000;
/** Pages of the feed as large as the API gives, for what changed while no view followed. */
const CATCH_UP_PAGE = 1000;

/**
 * The change feed as the page follows it: one cursor for the tab, so that each view that follows
 * resumes where the last one stopped, and a view opened later catches up on what changed while
 * none was shown. The first cursor is a list's (`Feed-Cursor`, taken before the list was read),
 * never the feed's origin: the tab reads what changed since it first read, not the store's
 * history. The client reads the stream from fetch, with the token in the Authorization header
 * (EventSource cannot send one), and opens it again from the cursor when it drops.
 */
export class LiveFeed {
  private cursor: string | undefined;

  constructor(
    private readonly client: Pick<PlantStoreClient, 'followChanges' | 'listPlantPages'>,
    private readonly followAgainAfterMs = FOLLOW_AGAIN_AFTER_MS,
  ) {}

  /** Whether the tab has a cursor: what it shows is kept current from there. */
  get started(): boolean {
    return this.cursor !== undefined;
  }

  /**
   * Starts the tab's following at a list's feed cursor, unless it has one: the earlier cursor
   * is kept, since everything read after it is made current by following from it.
   */
  startFrom(feedCursor: string | undefined): void {
    this.cursor ??= feedCursor;
  }

  /**
   * For a view that reads without listing (a plant), before its read: when the tab has no
   * cursor, takes one from a one-plant list, so that following from it tells every change the
   * view's read may miss. A failed list leaves the start to the feed's origin (the view's own
   * read says what failed).
   */
  async startFromNow(signal: AbortSignal): Promise<void> {
    if (this.started) return;
    const walk = this.client.listPlantPages({ limit: 1 }, { signal });
    try {
      const first = await walk.next();
      if (first.done !== true) this.startFrom(first.value.feedCursor);
    } catch {
      return;
    } finally {
      void walk.return(undefined);
    }
  }

  /** Hands each batch of changes to `apply` until `signal` aborts (the view is left). */
  async follow(signal: AbortSignal, apply: (changes: readonly PlantFeedChange[]) => void): Promise<void> {
    while (!signal.aborted) {
      try {
        for await (const { changes, next } of this.client.followChanges({
          after: this.cursor,
          limit: CATCH_UP_PAGE,
          signal,
        })) {
          this.cursor = next;
          if (changes.length > 0) apply(changes);
        }
      } catch (error) {
        if (signal.aborted) return;
        // The token was refused or lacks the scope: the view's own calls say so; nothing to follow.
        if (error instanceof PlantStoreApiError && (error.status === 401 || error.status === 403)) return;
        // A cursor the store no longer knows (a store replaced under the page): every change
        // of the store it now talks to, from the origin, brings what is shown up to it.
        if (error instanceof PlantStoreApiError && error.status === 400) this.cursor = undefined;
        await pause(this.followAgainAfterMs, signal);
      }
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
