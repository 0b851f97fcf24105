import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { ImportRejection } from '@plantstore/domain';

/**
 * The rejected lines, in the input's own format, so the user can fix them and import just
 * that file. `render` gives the text of one rejected line (undefined for one that cannot be
 * given back, such as an over-long line); `preamble` goes before the first (a CSV header).
 */
export class RejectsFile<S> {
  private readonly stream: WriteStream;
  private started = false;
  written = 0;

  constructor(
    readonly path: string,
    private readonly render: (source: S) => { preamble?: string; text: Buffer | string } | undefined,
  ) {
    // Truncated at the start: the file always holds this run's rejects, never an older run's.
    this.stream = createWriteStream(path);
  }

  async add({ entry }: ImportRejection<S>): Promise<void> {
    const rendered = this.render(entry.source);
    if (rendered === undefined) return;
    if (!this.started && rendered.preamble) this.stream.write(rendered.preamble);
    this.started = true;
    this.written++;
    if (!this.stream.write(rendered.text)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
