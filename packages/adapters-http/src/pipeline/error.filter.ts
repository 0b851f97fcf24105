import {
  Catch,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { StorageUnavailableError } from '@plantstore/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RouteTemplates } from '../http/route-templates.js';
import { logCause } from '../logging/log-cause.js';
import { HTTP_EVENTS, type HttpEvents } from '../ports/http-events.js';
import { sendError } from '../errors/error-reply.js';
import { Failures, type Failure } from '../errors/failures.js';
import { failureOf } from '../errors/failure-of.js';

/** Every failure, whoever raised it, leaves as `{error, message}` with a catalogued code. */
@Catch()
@Injectable()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(
    private readonly routes: RouteTemplates,
    @Inject(HTTP_EVENTS) private readonly events: HttpEvents,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const notAllowed = this.methodNotAllowed(exception, request);
    const known = notAllowed ?? failureOf(exception);
    if (exception instanceof StorageUnavailableError) {
      this.events.databaseUnavailable();
      logCause(request, exception.reason ?? 'database unavailable');
    }
    if (known === undefined) {
      this.events.internalError();
      this.logger.error(
        `${request.method} ${request.routeOptions.url ?? 'unmatched'} failed`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (reply.sent) return;
    // The client may still be sending a body we will not read: do not keep the connection for
    // it. It closes in stages (http/staged-close.ts), so the client still reads this answer.
    sendError(reply, known ?? Failures.internal, { closeConnection: hasUnreadBody(request) });
  }

  /** A 404 for a path that exists under other methods is a 405 with `Allow`. */
  private methodNotAllowed(exception: unknown, request: FastifyRequest): Failure | undefined {
    if (!(exception instanceof NotFoundException) || request.routeOptions.url !== undefined) return undefined;
    const found = this.routes.methodsInsteadOf(request.method, request.url.split('?', 1)[0] ?? '/');
    return found === undefined ? undefined : Failures.methodNotAllowed(request.method, found.template, found.methods);
  }
}

function hasUnreadBody(request: FastifyRequest): boolean {
  const { headers } = request.raw;
  const declaresBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  return declaresBody && !request.raw.readableEnded;
}
