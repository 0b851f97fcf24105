import { checkNewPlantShape, type ImportLine } from '@plantstore/domain';
import { isLosslessNumber, parse } from 'lossless-json';
import { splitLines, type ByteLine } from './byte-lines.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BLANK = /^[ \t]*$/;

const numberLiteral = (value: unknown): string | undefined => (isLosslessNumber(value) ? value.value : undefined);

/**
 * The text of a line, to give it back in a rejects file; its exact bytes when they are not
 * UTF-8; nothing for a line too long to keep.
 */
export type NdjsonSource = string | Buffer | undefined;

/**
 * NDJSON → import lines: one NewPlant object per line, parsed losslessly (an int64 id keeps
 * every digit) and checked with the same shape rules and messages as the API body. Blank
 * lines are skipped. A line's source is a fresh string, not a view of the
 * chunk it came from, so a held line never pins a whole chunk in memory.
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
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { line: number, source: Buffer.from(bytes), unreadable: 'The line is not valid UTF-8.' };
  }
  if (BLANK.test(text)) return undefined;
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const detail = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message;
    return { line: number, source: text, unreadable: `The line is not valid JSON: ${detail}.` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isLosslessNumber(value)) {
    return { line: number, source: text, unreadable: `The line must be a JSON object, not ${describe(value)}.` };
  }
  return { line: number, source: text, plant: checkNewPlantShape(value as Record<string, unknown>, numberLiteral) };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isLosslessNumber(value)) return 'a number';
  return `a ${typeof value}`;
}
