import {
  DEFAULT_CHANGE_STREAM_TICK_MS,
  DEFAULT_MAX_CHANGE_STREAMS,
  LOG_LEVELS,
  type HttpOptions,
  type LogLevel,
} from '@plantstore/adapters-http';
import {
  databaseConfigFor,
  sqliteDirectoryProblem,
  DEFAULT_PG_CONNECT_TIMEOUT_MS,
  DEFAULT_PG_POOL_SIZE,
  DEFAULT_PG_STATEMENT_TIMEOUT_MS,
  DEFAULT_SQLITE_BUSY_TIMEOUT_MS,
  type DatabaseConfig,
} from '@plantstore/adapters-persistence';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { REVOCATION_BOUND_MS } from '@plantstore/domain';
import { repositoryRoot } from './repository-root.js';

export interface AppConfig {
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseConfig;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxConnections: number;
  /** What the HTTP adapter refuses past its limits (docs/operations.md#capacity-shared-between-clients). */
  readonly limits: HttpLimits;
  readonly logLevel: LogLevel;
  readonly redisUrl: string | undefined;
  /** Deadline of one Redis call; past it the limits fail open. */
  readonly redisTimeoutMs: number;
  /** NATS servers for the PlantCreated relay (docs/operations.md#plant-events); no relay when absent. */
  readonly natsUrl: string | undefined;
  readonly shutdownTimeoutMs: number;
  readonly tokenCacheTtlMs: number;
  readonly tls: { readonly certFile: string; readonly keyFile: string } | undefined;
  /** Whether `/` serves the catalogue page (apps/web); off for an API-only deployment. */
  readonly webPage: boolean;
}

export type HttpLimits = Pick<
  HttpOptions,
  | 'bodyLimitBytes'
  | 'maxRequestsInFlight'
  | 'maxRequestsInFlightPerClient'
  | 'rateLimitPerMinute'
  | 'authFailuresPerMinute'
  | 'maxChangeStreams'
  | 'changeStreamTickMs'
>;

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates every variable of the README's table; the first bad one stops start-up. */
export function loadConfig(env: Env): AppConfig {
  const database = databaseFrom(env);
  const maxRequestsInFlight = integer(env, 'MAX_REQUESTS_IN_FLIGHT', 256, 1, 1_000_000);
  return {
    host: text(env, 'HOST', '127.0.0.1'),
    port: integer(env, 'PORT', 3000, 0, 65_535),
    database,
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 4_096, 1, 1_000_000),
    limits: {
      bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 65_536, 2, 16 * 1024 * 1024),
      maxRequestsInFlight,
      // Half by default: one client cannot take more than the others keep, however it holds its requests.
      maxRequestsInFlightPerClient: integer(
        env,
        'MAX_REQUESTS_IN_FLIGHT_PER_CLIENT',
        Math.ceil(maxRequestsInFlight / 2),
        1,
        maxRequestsInFlight,
      ),
      rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 0, 0, 1_000_000),
      authFailuresPerMinute: integer(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 60, 0, 1_000_000),
      maxChangeStreams: integer(env, 'MAX_CHANGE_STREAMS', DEFAULT_MAX_CHANGE_STREAMS, 1, 1_000_000),
      // At most a second: a change reaches the streams within a second of its commit (docs/changes.md).
      changeStreamTickMs: integer(env, 'CHANGE_STREAM_TICK_MS', DEFAULT_CHANGE_STREAM_TICK_MS, 10, 1_000),
    },
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    redisUrl: redisUrl(env),
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 50, 1, 10_000),
    natsUrl: natsUrl(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT', 10_000, 0, 600_000),
    // At most the revocation bound of docs/tokens.md#revocation.
    tokenCacheTtlMs: integer(env, 'TOKEN_CACHE_TTL_MS', 4_000, 0, REVOCATION_BOUND_MS),
    tls: tlsFiles(env),
    webPage: oneOf(env, 'WEB_PAGE', ['on', 'off'], 'on') === 'on',
  };
}

function redisUrl(env: Env): string | undefined {
  const url = env['REDIS_URL'];
  if (url === undefined || url === '') return undefined;
  if (!/^rediss?:\/\//.test(url)) throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  return url;
}

function natsUrl(env: Env): string | undefined {
  const url = env['NATS_URL'];
  if (url === undefined || url === '') return undefined;
  // A comma-separated list of servers of one cluster, as the NATS clients take it.
  if (!url.split(',').every((server) => /^(nats|tls):\/\/[^\s]+$/.test(server)))
    throw new ConfigError('NATS_URL must be nats:// or tls:// URLs, separated by commas');
  return url;
}

function tlsFiles(env: Env): AppConfig['tls'] {
  const certFile = env['TLS_CERT_FILE'] || undefined;
  const keyFile = env['TLS_KEY_FILE'] || undefined;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined)
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  pemFile('TLS_CERT_FILE', certFile, 'a PEM certificate', (pem) => new X509Certificate(pem));
  pemFile('TLS_KEY_FILE', keyFile, 'a PEM private key', (pem) => createPrivateKey(pem));
  return { certFile, keyFile };
}

/** The file a variable names must be readable and hold what it should; the message names the variable. */
function pemFile(name: string, file: string, what: string, parse: (pem: Buffer) => unknown): void {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable');
    throw new ConfigError(`${name} cannot be read: ${reason} (${JSON.stringify(file)})`);
  }
  try {
    parse(pem);
  } catch {
    throw new ConfigError(`${name} must name ${what} (${JSON.stringify(file)} is not one)`);
  }
}

/**
 * HOST must be an address or a name that resolves, checked before anything starts: otherwise
 * the whole application boots, opens its database, and only then fails to listen.
 */
export async function checkHost(config: AppConfig): Promise<void> {
  if (isIP(config.host) !== 0) return;
  try {
    await lookup(config.host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new ConfigError(
      `HOST must be an IP address or a host name that resolves (${JSON.stringify(config.host)}: ${code})`,
    );
  }
}

function databaseFrom(env: Env): DatabaseConfig {
  const tuning = {
    sqliteBusyTimeoutMs: integer(env, 'SQLITE_BUSY_TIMEOUT_MS', DEFAULT_SQLITE_BUSY_TIMEOUT_MS, 0, 600_000),
    pgPoolSize: integer(env, 'PG_POOL_SIZE', DEFAULT_PG_POOL_SIZE, 1, 1_000),
    pgStatementTimeoutMs: integer(env, 'PG_STATEMENT_TIMEOUT_MS', DEFAULT_PG_STATEMENT_TIMEOUT_MS, 100, 600_000),
    pgConnectTimeoutMs: integer(env, 'PG_CONNECT_TIMEOUT_MS', DEFAULT_PG_CONNECT_TIMEOUT_MS, 100, 600_000),
  };
  let config: DatabaseConfig;
  try {
    config = databaseConfigFor(env['DATABASE_URL'], repositoryRoot, tuning);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const problem = sqliteDirectoryProblem(config);
  if (problem !== undefined) throw new ConfigError(problem);
  return config;
}

function text(env: Env, name: string, fallback: string): string {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(raw)})`);
  }
  return raw as T;
}
