import type { LoggerService } from '@nestjs/common';
import { LogSampler } from '../logging/log-sampler.js';
import type { AuthFailureReason } from '../ports/http-events.js';

/**
 * The log lines of refused requests: a burst of each reason, then at most one a second per
 * reason (LogSampler), each saying how many refusals of that reason went unwritten since the one before (a
 * throttled client or an address spray chooses how often it is refused, not how much is
 * logged; plantstore_auth_failures_total counts every one). The reason is a fixed word and the
 * client its address; nothing the client sent (a token, a header) is ever part of a line.
 */
export class RefusalLog {
  private readonly samplers = new Map<AuthFailureReason, LogSampler>();

  constructor(private readonly logger: LoggerService) {}

  refused(reason: AuthFailureReason, clientAddress: string): void {
    let sampler = this.samplers.get(reason);
    if (sampler === undefined) this.samplers.set(reason, (sampler = new LogSampler()));
    const unwritten = sampler.take();
    if (unwritten === undefined) return;
    this.logger.warn({
      msg: 'authentication refused',
      reason,
      client: clientAddress,
      ...(unwritten > 0 ? { unlogged: unwritten } : {}),
    });
  }
}
