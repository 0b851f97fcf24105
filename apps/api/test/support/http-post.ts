import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface PostResult {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/**
 * POST /plants over a keep-alive agent: a load of many requests reuses a bounded number of
 * connections (at most `maxSockets` per server), as a real client pool would.
 */
export function keepAliveAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

export function postPlantVia(
  agent: Agent,
  url: string,
  token: string,
  body: string,
  timeoutMs = 15_000,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/plants`,
      {
        method: 'POST',
        agent,
        timeout: timeoutMs,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
        // A server killed mid-answer: the partial response must not pass for a whole one.
        res.on('aborted', () => reject(new Error('response aborted')));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** GET `path` over the same kind of agent (for /readyz and the like). */
export function getVia(agent: Agent, url: string, path: string, timeoutMs = 15_000): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'GET', agent, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}${path} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Any request to `path` over the same kind of agent, with a bearer token, optional JSON body and headers. */
export function sendVia(
  agent: Agent,
  url: string,
  request_: { method: string; path: string; token: string; body?: string; headers?: Record<string, string> },
  timeoutMs = 15_000,
): Promise<PostResult> {
  const { method, path, token, body, headers = {} } = request_;
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined
            ? {}
            : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}${path} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
