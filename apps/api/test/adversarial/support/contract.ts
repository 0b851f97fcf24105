export const JSON_UTF8 = 'application/json; charset=utf-8';

/** A response as any of the suites' clients reads it: raw socket, node:http or supertest. */
export interface ResponseForContract {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * What is wrong with a non-2xx response against docs/errors.md: JSON content type, a
 * body of exactly `{error: int, message: string}`, and `error` whose first three digits are
 * the status. Empty when the response keeps the contract.
 */
export function errorContractProblems(response: ResponseForContract): string[] {
  const problems: string[] = [];
  if (response.headers['content-type'] !== JSON_UTF8)
    problems.push(`content-type is ${JSON.stringify(response.headers['content-type'])}`);
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return [...problems, `body is not JSON: ${JSON.stringify(response.text.slice(0, 200))}`];
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return [...problems, `body is not an object: ${response.text.slice(0, 200)}`];
  const keys = Object.keys(body).sort();
  if (keys.join(',') !== 'error,message') problems.push(`body keys are ${keys.join(',')}`);
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error !== 'number' || !Number.isInteger(error)) problems.push(`error is ${JSON.stringify(error)}`);
  else if (Math.floor(error / 100) !== response.status)
    problems.push(`error ${error} does not belong to status ${response.status}`);
  if (typeof message !== 'string' || message.length === 0) problems.push(`message is ${JSON.stringify(message)}`);
  return problems;
}

/** The Error body's code, after asserting the whole contract. */
export function expectErrorContract(response: ResponseForContract, context = ''): number {
  const problems = errorContractProblems(response);
  if (problems.length > 0) {
    throw new Error(
      `${context}${context ? ': ' : ''}status ${response.status} breaks the Error contract: ${problems.join('; ')}`,
    );
  }
  return (JSON.parse(response.text) as { error: number }).error;
}
