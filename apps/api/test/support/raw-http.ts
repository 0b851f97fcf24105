import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Sends bytes exactly as given (for requests no HTTP client would produce) and reads until
 * the server closes the connection, or fails after `timeoutMs`.
 */
export function rawRequest(
  url: string,
  bytes: string | Buffer,
  options: { timeoutMs?: number; keepOpen?: boolean } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${options.timeoutMs ?? 5000} ms`));
    }, options.timeoutMs ?? 5000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks).toString('utf8')));
    });
    socket.write(bytes);
    if (!options.keepOpen) socket.end();
  });
}

function parseResponse(text: string): RawResponse {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}
