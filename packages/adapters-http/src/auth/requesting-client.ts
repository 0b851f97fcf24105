import type { IncomingMessage } from 'node:http';
import { readBearerCredentials } from './bearer-credentials.js';

/**
 * Whose request this is, for the in-flight limit per client (http/load-shedding.ts): its bearer
 * token as readBearerCredentials reads it, else (no token, or a header that presents none) its
 * peer address. The key is never logged.
 */
export function requestingClient(request: IncomingMessage): string {
  const credentials = readBearerCredentials(request);
  if (credentials.kind === 'token') return `token ${credentials.token}`;
  return `address ${request.socket.remoteAddress ?? ''}`;
}
