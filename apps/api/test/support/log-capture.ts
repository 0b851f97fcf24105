import { createHash } from 'node:crypto';

/** Every log line an in-process app writes, kept in memory instead of printed. */
export class LogCapture {
  readonly lines: string[] = [];
  readonly destination = { write: (line: string) => void this.lines.push(line) };

  /** Throws when any line holds a token, its stored hash, or an Authorization value. */
  assertNoSecrets(tokens: readonly string[]): void {
    const secrets = tokens.flatMap((token) => [
      token,
      createHash('sha256').update(token).digest('hex'),
      `Bearer ${token}`,
    ]);
    for (const line of this.lines) {
      const leaked = secrets.find((secret) => line.includes(secret));
      if (leaked !== undefined) {
        const masked = secrets.reduce((text, secret) => text.replaceAll(secret, '[SECRET]'), line);
        throw new Error(`a log line contains a token, its hash or an Authorization value: ${masked.slice(0, 300)}`);
      }
      if (/authorization/i.test(line))
        throw new Error(`a log line mentions the Authorization header: ${line.slice(0, 200)}`);
    }
  }
}
