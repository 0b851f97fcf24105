import { exchange } from './raw-exchange.js';

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Sends bytes exactly as given (for requests no HTTP client would produce) and resolves with
 * the first response once the server closes the connection; fails after `timeoutMs`. The
 * wire work is `exchange`'s; this is the one-request form most suites need.
 */
export async function rawRequest(
  url: string,
  bytes: string | Buffer,
  options: { timeoutMs?: number; keepOpen?: boolean } = {},
): Promise<RawResponse> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const { responses, ending } = await exchange(url, bytes, {
    deadlineMs: timeoutMs,
    endAfterSending: options.keepOpen !== true,
  });
  const [first] = responses;
  if (ending === 'deadline' || first === undefined) throw new Error(`no complete response within ${timeoutMs} ms`);
  return { status: first.status, headers: first.headers, body: first.text };
}
