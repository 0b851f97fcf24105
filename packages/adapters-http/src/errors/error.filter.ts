import { Catch, Logger, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PlantConflictError, StorageUnavailableError } from '@plantstore/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { PlantStoreMetrics } from '../observability/plant-store-metrics.js';
import { ApiError } from './api-error.js';
import { ErrorCode } from './error-codes.js';
import { toErrorResponse } from './to-error-response.js';

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Every failure, whoever raised it, leaves as `{error, message}` with a catalogued code. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: PlantStoreMetrics,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const response = toErrorResponse(this.methodNotAllowed(exception, request) ?? exception);
    this.count(exception, response.unexpected);
    if (response.unexpected) {
      this.logger.error(`${request.method} ${request.routeOptions.url ?? 'unmatched'} failed`, exception instanceof Error ? exception.stack : String(exception));
    }
    if (reply.sent) return;
    reply.status(response.status).headers(response.headers).header('content-type', 'application/json; charset=utf-8');
    // The client may still be sending a body we will not read: do not keep the connection for it.
    if (hasUnreadBody(request)) reply.header('connection', 'close');
    void reply.send(JSON.stringify(response.body));
  }

  private count(exception: unknown, unexpected: boolean): void {
    if (exception instanceof PlantConflictError) this.metrics.plantOutcome('conflict');
    else if (exception instanceof StorageUnavailableError) this.metrics.databaseUnavailable();
    else if (unexpected) this.metrics.internalError();
  }

  /** A 404 for a path that exists under other methods is a 405 with `Allow`. */
  private methodNotAllowed(exception: unknown, request: FastifyRequest): ApiError | undefined {
    if (!(exception instanceof NotFoundException) || request.routeOptions.url !== undefined) return undefined;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const path = request.url.split('?', 1)[0] ?? '/';
    const allowed = METHODS.filter((method) => fastify.hasRoute({ method, url: path }));
    if (allowed.length === 0) return undefined;
    return new ApiError(ErrorCode.MethodNotAllowed, `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`, {
      allow: allowed.join(', '),
    });
  }
}

function hasUnreadBody(request: FastifyRequest): boolean {
  const { headers } = request.raw;
  const declaresBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  return declaresBody && !request.raw.readableEnded;
}
