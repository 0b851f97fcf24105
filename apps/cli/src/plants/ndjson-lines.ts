import { checkNewPlantShape, type ImportLine } from '@plantstore/domain';
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
export async function* ndjsonLines(chunks: AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<ImportLine<NdjsonSource>[]> {
  for await (const group of splitLines(chunks, maxLineBytes)) {
    const lines: ImportLine<NdjsonSource>[] = [];
    for (const line of group) {
      const entry = readLine(line, maxLineBytes);
      if (entry !== undefined) lines.push(entry);
    }
    if (lines.length > 0) yield lines;
  }
}

function readLine({ number, bytes }: ByteLine, maxLineBytes: number): ImportLine<NdjsonSource> | undefined {
  if (bytes === undefined) return { line: number, source: undefined, unreadable: `The line is longer than ${maxLineBytes} bytes.` };
  if (isBlank(bytes)) return undefined;
  const reading = readJsonObject(bytes, 'The line');
  if (!reading.ok) return { line: number, source: reading.text ?? Buffer.from(bytes), unreadable: reading.message };
  return { line: number, source: reading.text, plant: checkNewPlantShape(reading.object, numberLiteral) };
}

/** Only spaces and tabs, or nothing at all. */
function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== SPACE && byte !== TAB) return false;
  return true;
}
