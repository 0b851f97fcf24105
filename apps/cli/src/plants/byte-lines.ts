const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** One physical line of a file, without its line break. */
export interface ByteLine {
  /** 1-based. */
  readonly number: number;
  /** The line's bytes, or undefined when it was longer than the limit (and was not kept). */
  readonly bytes: Buffer | undefined;
  /** Whether it ended with CRLF rather than LF (or nothing, at the end of the input). */
  readonly crlf: boolean;
}

/**
 * Splits a byte stream into lines, one array per chunk read. A line is kept only up to
 * `maxLineBytes`, so a file without line breaks cannot fill the memory. Both LF and CRLF end
 * a line; bytes are not decoded here, so the caller can refuse invalid UTF-8 and still give
 * the line back exactly.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<ByteLine[]> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  let number = 0;
  const finish = (tail: Buffer): ByteLine => {
    let bytes: Buffer | undefined;
    let crlf = false;
    if (!oversized && pendingBytes + tail.length <= maxLineBytes) {
      bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
      crlf = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN;
      if (crlf) bytes = bytes.subarray(0, bytes.length - 1);
    }
    pending = [];
    pendingBytes = 0;
    oversized = false;
    return { number: ++number, bytes, crlf };
  };

  for await (const chunk of chunks) {
    const lines: ByteLine[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      lines.push(finish(chunk.subarray(start, end)));
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    if (oversized || pendingBytes + rest.length > maxLineBytes) {
      oversized = true;
      pending = [];
      pendingBytes = 0;
    } else if (rest.length > 0) {
      // A copy: the stream may reuse its buffer, and the tail must outlive it.
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
    if (lines.length > 0) yield lines;
  }
  if (oversized || pendingBytes > 0) yield [finish(Buffer.alloc(0))];
}
