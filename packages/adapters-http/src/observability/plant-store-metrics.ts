import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { AuthFailureReason } from '../auth/auth-failure.js';

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

  private readonly internalErrors = new Counter({
    name: 'plantstore_internal_errors_total',
    help: 'Requests that failed unexpectedly (500).',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
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

  internalError(): void {
    this.internalErrors.inc();
  }
}
