import type { ImportLine } from '@plantstore/domain';

const NEWLINE = 0x0a;

/**
 * Lines as an editor numbers them. The domain counts the entries it is given, and blank
 * lines (or the line breaks inside a quoted CSV field) never reach it; this counts the input
 * itself, so a 10-line file with a blank line is 10 lines, and maps an entry count back to
 * the line that entry came from.
 */
export class LineCount {
  private newlines = 0;
  private endsWithNewline = true;
  private group: readonly ImportLine<unknown>[] = [];
  private entriesBeforeGroup = 0;

  /** Passes the input through, counting its line breaks. */
  async *ofBytes(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) this.newlines++;
      if (chunk.length > 0) this.endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
      yield chunk;
    }
  }

  /**
   * Passes the entries through, keeping the latest group: the import takes one group at a
   * time and finishes it before the next, so any count it reports falls in that group.
   */
  async *ofEntries<S>(groups: AsyncIterable<ImportLine<S>[]>): AsyncGenerator<ImportLine<S>[]> {
    for await (const group of groups) {
      this.entriesBeforeGroup += this.group.length;
      this.group = group;
      yield group;
    }
  }

  /** The line number of the `entries`-th entry handed on: how far an import that has taken that many got. */
  through(entries: number): number {
    if (entries <= 0) return 0;
    return this.group[entries - this.entriesBeforeGroup - 1]?.line ?? this.read;
  }

  /** The line being read now: the one after the last line break passed through. */
  get reading(): number {
    return this.newlines + 1;
  }

  /** Every line read so far; once the input is read to its end, the lines of the whole input. */
  get read(): number {
    return this.newlines + (this.endsWithNewline ? 0 : 1);
  }
}
