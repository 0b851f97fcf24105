import type { ImportLine } from '@plantstore/domain';
import { numberLiteral, readJsonObject } from '@plantstore/json-reader';
import { splitLines, type ByteLine } from './byte-lines.js';

const SPACE = 0x20;
const TAB = 0x09;

/**
 * The text of a line, to give it back in a rejects file; its exact bytes when they are not
 * UTF-8; nothing for a line too long to keep.
 */
export type NdjsonSource = string | Buffer | undefined;

/**
 * NDJSON → import lines: one NewPlant object per line, read as the API reads a body
 * (@plantstore/json-reader) and checked with the same shape rules and messages. Blank lines
 * are skipped. A line's source is a fresh string, not a view of the chunk it came from, so a
 * held line never pins a whole chunk in memory.
 */
export async function* ndjsonLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes: number,
): AsyncGenerator<ImportLine<NdjsonSource>[]> {
  let first = true;
  for await (const group of splitLines(chunks, maxLineBytes)) {
    const lines: ImportLine<NdjsonSource>[] = [];
    for (const line of group) {
      const entry = readLine(line, maxLineBytes);
      if (entry === undefined) continue;
      lines.push(first ? withCsvHint(entry) : entry);
      first = false;
    }
    if (lines.length > 0) yield lines;
  }
}

/**
 * A CSV given as NDJSON (stdin is NDJSON unless told otherwise) fails on its first line: that
 * line's message says what to add, rather than leaving the operator to work out the format.
 */
function withCsvHint(entry: ImportLine<NdjsonSource>): ImportLine<NdjsonSource> {
  if (!('unreadable' in entry) || typeof entry.source !== 'string' || !looksLikeCsv(entry.source)) return entry;
  return { ...entry, unreadable: `${entry.unreadable} It looks like CSV: add --format csv.` };
}

/** Not a JSON object or array, and cells separated by commas (a header such as id,name,tag). */
function looksLikeCsv(text: string): boolean {
  const trimmed = text.trim();
  return !trimmed.startsWith('{') && !trimmed.startsWith('[') && trimmed.includes(',');
}

function readLine({ number, bytes }: ByteLine, maxLineBytes: number): ImportLine<NdjsonSource> | undefined {
  if (bytes === undefined)
    return { line: number, source: undefined, unreadable: `The line is longer than ${maxLineBytes} bytes.` };
  if (isBlank(bytes)) return undefined;
  const reading = readJsonObject(bytes, 'The line');
  if (!reading.ok) return { line: number, source: reading.text ?? Buffer.from(bytes), unreadable: reading.message };
  return { line: number, source: reading.text, plant: { fields: reading.object, numberLiteral } };
}

/** Only spaces and tabs, or nothing at all. */
function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== SPACE && byte !== TAB) return false;
  return true;
}
