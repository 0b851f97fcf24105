import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FeedLagReading } from '../ports/feed-lag.js';
import type { LimiterStorage } from '../ports/limiter-storage.js';
import type {
  AuthFailureReason,
  ChangeStreamEnd,
  HttpEvents,
  PlantChangeOutcome,
  PlantOutcome,
} from '../ports/http-events.js';
import type { OutboxBacklog, OutboxRelayCounts, OutboxStatus } from '../ports/outbox-status.js';

/**
 * Every metric of the service, on a registry of its own (one per app instance, tests included).
 * The request path tells it what happened through HttpEvents; nothing there imports it.
 */
export class PlantStoreMetrics implements HttpEvents {
  readonly registry = new Registry();

  private readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request start to response end, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  private readonly plants = new Counter({
    name: 'plantstore_plants_total',
    help: 'Create requests that reached the store, by outcome (created, replayed, conflict, retired).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly changes = new Counter({
    name: 'plantstore_plant_changes_total',
    help: 'Changes (PUT, operation replace) and deletions (DELETE, operation remove) that reached the store, by outcome.',
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly authFailures = new Counter({
    name: 'plantstore_auth_failures_total',
    help: 'Requests refused by authentication or authorization, by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly databaseErrors = new Counter({
    name: 'plantstore_database_errors_total',
    help: 'Requests that failed because the database was unavailable (503).',
    registers: [this.registry],
  });

  private readonly shedRequests = new Counter({
    name: 'plantstore_requests_shed_total',
    help: 'Requests refused at once (503) because the server already had MAX_REQUESTS_IN_FLIGHT in progress.',
    registers: [this.registry],
  });

  private readonly overClientShare = new Counter({
    name: 'plantstore_requests_over_client_share_total',
    help: 'Requests refused at once (429) because their client already had MAX_REQUESTS_IN_FLIGHT_PER_CLIENT in progress.',
    registers: [this.registry],
  });

  private readonly internalErrors = new Counter({
    name: 'plantstore_internal_errors_total',
    help: 'Requests that failed unexpectedly (500).',
    registers: [this.registry],
  });

  private readonly openChangeStreams = new Gauge({
    name: 'plantstore_change_streams_open',
    help: 'Change streams (GET /plants/changes as text/event-stream) open on this instance.',
    registers: [this.registry],
  });

  private readonly endedChangeStreams = new Counter({
    name: 'plantstore_change_streams_ended_total',
    help: 'Change streams ended, by reason (client-closed, token-refused, slow-follower, store-failed, shutdown).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly refusedChangeStreams = new Counter({
    name: 'plantstore_change_streams_refused_total',
    help: 'Change streams refused at once (503) because MAX_CHANGE_STREAMS were open.',
    registers: [this.registry],
  });

  private readonly sentChanges = new Counter({
    name: 'plantstore_changes_sent_total',
    help: 'Feed entries sent: one per entry per change stream, and one per entry of a JSON page.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** For counters kept in Redis: whether it answers, and how often it did not (read at scrape time). */
  watchLimiterStorage(storage: LimiterStorage): void {
    const { status } = storage;
    if (status === undefined) return;
    new Gauge({
      name: 'plantstore_rate_limit_store_up',
      help: 'Whether the shared rate-limit counters (Redis) answer: 1 limiting, 0 failing open.',
      registers: [this.registry],
      collect() {
        this.set(storage.status?.available ? 1 : 0);
      },
    });
    new Counter({
      name: 'plantstore_rate_limit_store_failures_total',
      help: 'Calls to the shared rate-limit counters (Redis) that failed or missed their deadline.',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(storage.status?.failures ?? 0);
      },
    });
  }

  /** The PlantCreated relay: what waits in the outbox (read at scrape time) and what was published. */
  watchOutbox(outbox: OutboxStatus): void {
    // One read of the outbox per scrape serves both gauges.
    let pending: Promise<OutboxBacklogReading | undefined> | undefined;
    const read = (): Promise<OutboxBacklogReading | undefined> =>
      (pending ??= outbox
        .backlog()
        .then((backlog) => ({ backlog, at: Date.now() }))
        .catch(() => undefined)
        .finally(() => setImmediate(() => (pending = undefined))));
    new Gauge({
      name: 'plantstore_outbox_backlog_events',
      help: 'PlantCreated events committed and not yet acknowledged by NATS JetStream (all instances).',
      registers: [this.registry],
      async collect() {
        const reading = await read();
        // An unreadable outbox (database down) is not a zero backlog.
        this.set(reading === undefined ? NaN : reading.backlog.events);
      },
    });
    new Gauge({
      name: 'plantstore_outbox_lag_seconds',
      help: 'Age of the oldest PlantCreated event not yet published; 0 when the outbox is empty.',
      registers: [this.registry],
      async collect() {
        const reading = await read();
        const oldest = reading?.backlog.oldestCreatedAt;
        this.set(
          reading === undefined ? NaN : oldest === undefined ? 0 : Math.max(0, reading.at - oldest.getTime()) / 1000,
        );
      },
    });
    const counter = (name: string, help: string, count: (counts: OutboxRelayCounts) => number): void =>
      void new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(count(outbox.counts()));
        },
      });
    counter(
      'plantstore_outbox_published_total',
      'PlantCreated events this instance published to JetStream.',
      (c) => c.published,
    );
    counter(
      'plantstore_outbox_duplicates_total',
      'PlantCreated events this instance published again that JetStream dropped as duplicates (after a crash or a failed batch).',
      (c) => c.duplicates,
    );
    counter(
      'plantstore_outbox_publish_failures_total',
      'Relay attempts that failed (NATS or the database unavailable); each is retried after a backoff.',
      (c) => c.failures,
    );
  }

  /** How far the change feed is behind the store's commits (read at scrape time); NaN when unreadable. */
  watchFeedLag(feedLag: () => Promise<FeedLagReading>): void {
    // One read of the store per scrape serves both gauges.
    let pending: Promise<{ lag: FeedLagReading; at: number } | undefined> | undefined;
    const read = () =>
      (pending ??= feedLag()
        .then((lag) => ({ lag, at: Date.now() }))
        .catch(() => undefined)
        .finally(() => setImmediate(() => (pending = undefined))));
    new Gauge({
      name: 'plantstore_change_feed_lag_changes',
      help: 'Changes committed that no follower of the change feed can read yet: a transaction still open holds them back.',
      registers: [this.registry],
      async collect() {
        const reading = await read();
        this.set(reading === undefined ? NaN : reading.lag.changes);
      },
    });
    new Gauge({
      name: 'plantstore_change_feed_lag_seconds',
      help: 'Age of the oldest change the change feed cannot serve yet; 0 when it serves every commit.',
      registers: [this.registry],
      async collect() {
        const reading = await read();
        const oldest = reading?.lag.oldestChangedAt;
        this.set(
          reading === undefined ? NaN : oldest === undefined ? 0 : Math.max(0, reading.at - oldest.getTime()) / 1000,
        );
      },
    });
  }

  requestCompleted(method: string, route: string, status: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status: String(status) }, seconds);
  }

  plantOutcome(outcome: PlantOutcome): void {
    this.plants.inc({ outcome });
  }

  plantChanged({ operation, outcome }: PlantChangeOutcome): void {
    this.changes.inc({ operation, outcome });
  }

  authFailure(reason: AuthFailureReason): void {
    this.authFailures.inc({ reason });
  }

  databaseUnavailable(): void {
    this.databaseErrors.inc();
  }

  requestShed(): void {
    this.shedRequests.inc();
  }

  requestOverClientShare(): void {
    this.overClientShare.inc();
  }

  internalError(): void {
    this.internalErrors.inc();
  }

  changeStreamOpened(): void {
    this.openChangeStreams.inc();
  }

  changeStreamEnded(reason: ChangeStreamEnd): void {
    this.openChangeStreams.dec();
    this.endedChangeStreams.inc({ reason });
  }

  changeStreamRefused(): void {
    this.refusedChangeStreams.inc();
  }

  changesSent(count: number): void {
    this.sentChanges.inc(count);
  }
}

interface OutboxBacklogReading {
  readonly backlog: OutboxBacklog;
  readonly at: number;
}
