import type { PlantEvent } from '@plantstore/domain';

/** The store side: hands the oldest events to `publish` and forgets them once it resolves. */
export interface PlantEventSource {
  relay(limit: number, publish: (events: readonly PlantEvent[]) => Promise<void>): Promise<number>;
}

export interface PublishReport {
  /** Messages the broker stored. */
  readonly stored: number;
  /** Messages the broker dropped as duplicates: it had stored one with the same event id. */
  readonly duplicates: number;
}

export interface PlantEventPublisher {
  publish(events: readonly PlantEvent[]): Promise<PublishReport>;
  close(): Promise<void>;
  /** When the broker's connection is back after a drop, `listener` runs: the relay retries at once. */
  onReconnect?(listener: () => void): void;
}

export interface RelayLog {
  warn(message: string): void;
  info(message: string): void;
}

export interface RelayOptions {
  /** Events per claim and publish. */
  readonly batchSize: number;
  /** Pause when the outbox is empty before looking again. */
  readonly idlePollMs: number;
  /** First pause after a failure; doubled after each further failure, up to `maxBackoffMs`. */
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Pause between attempts to connect to the broker at all (500 ms when absent). */
  readonly connectRetryMs?: number;
}

export const DEFAULT_RELAY_OPTIONS: RelayOptions = {
  batchSize: 256,
  idlePollMs: 100,
  initialBackoffMs: 100,
  maxBackoffMs: 5_000,
};

/** Counts since start, for the metrics. */
export interface RelayCounts {
  readonly published: number;
  readonly duplicates: number;
  readonly failures: number;
}

/**
 * Moves plant events from the outbox to the broker, one batch at a time, until stopped.
 * A batch is forgotten by the store only after the broker acknowledged all of it; a failed
 * batch stays and is tried again after a capped exponential backoff (NATS down, database
 * down). Runs beside the HTTP server and never touches its readiness.
 */
export class OutboxRelay {
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeUp: () => void = () => undefined;
  private readonly stopSignal: Promise<undefined>;
  private signalStop: () => void = () => undefined;
  private readonly counts = { published: 0, duplicates: 0, failures: 0 };

  constructor(
    private readonly source: PlantEventSource,
    private readonly connect: () => Promise<PlantEventPublisher>,
    private readonly log: RelayLog,
    private readonly options: RelayOptions = DEFAULT_RELAY_OPTIONS,
  ) {
    this.stopSignal = new Promise((resolve) => (this.signalStop = () => resolve(undefined)));
  }

  get status(): RelayCounts {
    return { ...this.counts };
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Ends the loop after the batch in flight (whose events are kept or forgotten as usual). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    this.wakeUp();
    await this.running;
  }

  private async run(): Promise<void> {
    let publisher: PlantEventPublisher | undefined;
    let failuresInARow = 0;
    // Failures since the broker was last seen coming back: what the backoff grows with.
    let failuresSinceReconnect = 0;
    while (!this.stopped) {
      let connecting = false;
      try {
        if (publisher === undefined) {
          connecting = true;
          publisher = await this.connectUnlessStopped();
          if (publisher === undefined) break;
          // Back after an outage: retry now, from the shortest backoff, not after the one in progress.
          publisher.onReconnect?.(() => {
            failuresSinceReconnect = 0;
            this.wakeUp();
          });
          connecting = false;
        }
        const connected = publisher;
        const relayed = await this.source.relay(this.options.batchSize, async (events) => {
          const report = await connected.publish(events);
          this.counts.published += report.stored;
          this.counts.duplicates += report.duplicates;
        });
        if (failuresInARow > 0) this.log.info(`publishing plant events again after ${failuresInARow} failed attempts`);
        failuresInARow = 0;
        failuresSinceReconnect = 0;
        if (relayed < this.options.batchSize) await this.pause(this.options.idlePollMs);
      } catch (error) {
        this.counts.failures++;
        failuresInARow++;
        failuresSinceReconnect++;
        // One line per outage, not one per retry.
        if (failuresInARow === 1) this.log.warn(`publishing plant events failed, retrying: ${messageOf(error)}`);
        // Not connected yet: try again soon, as the client does once connected; else back off.
        const backoff = connecting
          ? (this.options.connectRetryMs ?? 500)
          : Math.min(
              this.options.maxBackoffMs,
              this.options.initialBackoffMs * 2 ** Math.min(failuresSinceReconnect - 1, 30),
            );
        await this.pause(backoff);
      }
    }
    await publisher?.close().catch(() => undefined);
  }

  /** One attempt to connect; a stop meanwhile ends the wait (and closes the late connection). */
  private async connectUnlessStopped(): Promise<PlantEventPublisher | undefined> {
    const connecting = this.connect();
    const publisher = await Promise.race([connecting, this.stopSignal]);
    if (publisher === undefined) void connecting.then((late) => late.close()).catch(() => undefined);
    return publisher;
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
