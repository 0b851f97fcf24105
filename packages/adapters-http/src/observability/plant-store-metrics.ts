import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AuthFailureReason } from '../auth/auth-failure.js';
import type { LimiterStorage } from '../limits/limiter-storage.js';

/** Every metric of the service, on a registry of its own (one per app instance, tests included). */
export class PlantStoreMetrics {
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
    help: 'Create requests that succeeded or conflicted, by outcome (created, replayed, conflict).',
    labelNames: ['outcome'] as const,
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

  private readonly internalErrors = new Counter({
    name: 'plantstore_internal_errors_total',
    help: 'Requests that failed unexpectedly (500).',
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

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requestDuration.observe({ method, route, status: String(status) }, seconds);
  }

  plantOutcome(outcome: 'created' | 'replayed' | 'conflict'): void {
    this.plants.inc({ outcome });
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

  internalError(): void {
    this.internalErrors.inc();
  }
}
