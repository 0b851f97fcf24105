import { isUtf8 } from 'node:buffer';
import type { ImportLine } from '@plantstore/domain';
import { splitLines, type ByteLine } from './byte-lines.js';

const COLUMNS = ['id', 'name', 'tag'] as const;
type Column = (typeof COLUMNS)[number];

// Every CSV cell is text: a present id is taken as the literal of a number, as in JSON.
const cellAsLiteral = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const QUOTE = '"';
const COMMA = ',';
const BOM = '\uFEFF';
const BOM_BYTES = Buffer.from(BOM, 'utf8');

/** The CSV header as read, kept for the rejects file, and the record: its text, or its bytes when they are not UTF-8. */
export interface CsvSource {
  readonly header: string;
  readonly raw: string | Buffer | undefined;
}

/**
 * CSV (RFC 4180, header `id,name,tag` in any order, `tag` optional) → import lines. Quoted
 * fields may hold commas, quotes (doubled) and line breaks; a UTF-8 BOM is dropped; blank lines
 * are skipped. An empty cell is an absent field (a tag is never empty, so an empty tag cell
 * means no tag). A record is numbered by the line it starts on. A record with bytes that are
 * not UTF-8 is refused, as the API and the NDJSON reader refuse them, never imported with
 * replacement characters; it is given back byte for byte.
 *
 * Every record of the input is accounted for: broken quoting rejects the record it is in, with
 * the line it starts on and why, and reading goes on at the next record. A quote inside an
 * unquoted field (`4,Bro"ken`) or text after a closing quote (`4,"Closed" junk`) ends its
 * record at the end of that line. A quote never closed (to the end of the input, or within the
 * record size limit) would make the rest of the file one field: its record is rejected as the
 * one line it starts on, and the lines after it are read again as records of their own (each
 * imported, or rejected with its own line number).
 *
 * Written here rather than with a CSV library: csv-parse's recovery (`skip_records_with_error`)
 * swallows the rest of the file after a closing-quote error, and cannot resume at the next line.
 */
export async function* csvLines(
  chunks: AsyncIterable<Buffer>,
  maxRecordBytes: number,
): AsyncGenerator<ImportLine<CsvSource>[]> {
  const reader = new RecordReader(maxRecordBytes);
  for await (const group of splitLines(chunks, maxRecordBytes)) {
    const lines = reader.read(group.map(physicalLine));
    if (lines.length > 0) yield lines;
    if (reader.finished) return;
  }
  const lines = reader.end();
  if (lines.length > 0) yield lines;
}

/** One line of the file: its text (undefined when over the size limit) and its own line break. */
interface PhysicalLine {
  readonly number: number;
  /**
   * Decoded with replacement characters when the bytes are not UTF-8: quotes and commas are
   * ASCII, which no invalid sequence swallows, so the record's bounds are still found.
   */
  readonly text: string | undefined;
  /** A copy of the line's bytes when they are not UTF-8, to give them back exactly. */
  readonly invalidBytes: Buffer | undefined;
  readonly lineBreak: string;
}

function physicalLine({ number, bytes, crlf }: ByteLine): PhysicalLine {
  return {
    number,
    text: bytes?.toString('utf8'),
    // A copy: the record may outlive the chunk the line is a view of.
    invalidBytes: bytes === undefined || isUtf8(bytes) ? undefined : Buffer.from(bytes),
    lineBreak: crlf ? '\r\n' : '\n',
  };
}

type Scan = 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted';

/** A record being read: possibly over several lines, while a quoted field is open. */
interface OpenRecord {
  readonly lines: PhysicalLine[];
  readonly cells: string[];
  cell: string;
  scan: Scan;
  bytes: number;
}

class RecordReader {
  private header: { raw: string; columns: Partial<Record<Column, number>>; width: number } | undefined;
  private record: OpenRecord | undefined;
  /** Lines to read (again): the input's, and those of a record whose quote never closed. */
  private readonly queue: PhysicalLine[] = [];
  private out: ImportLine<CsvSource>[] = [];
  finished = false;

  constructor(private readonly maxRecordBytes: number) {}

  read(lines: readonly PhysicalLine[]): ImportLine<CsvSource>[] {
    this.queue.push(...lines);
    this.drain();
    return this.take();
  }

  /** The input ended: a record still inside a quoted field gives its lines back as records. */
  end(): ImportLine<CsvSource>[] {
    while (this.record !== undefined && !this.finished) {
      this.unclosed('a quoted field is never closed');
      this.drain();
    }
    return this.take();
  }

  private take(): ImportLine<CsvSource>[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private drain(): void {
    for (let line = this.queue.shift(); line !== undefined && !this.finished; line = this.queue.shift())
      this.readLine(line);
  }

  private readLine(line: PhysicalLine): void {
    if (line.text === undefined) {
      // Over the limit, the line was not kept: neither a record of its own nor part of one.
      if (this.record !== undefined) {
        // Given back with the record's other lines, to be refused as a line of its own.
        this.record.lines.push(line);
        return this.unclosed(`a quoted field is not closed within ${this.maxRecordBytes} bytes`);
      }
      return this.reject(line.number, [], `The line is longer than ${this.maxRecordBytes} bytes.`);
    }
    const text = withoutBom(line);
    if (this.record === undefined) {
      if (text === '') return; // a blank line between records
      this.record = { lines: [], cells: [], cell: '', scan: 'fieldStart', bytes: 0 };
    }
    const record = this.record;
    record.lines.push(line);
    record.bytes += Buffer.byteLength(text);
    const problem = scan(record, text);
    if (problem !== undefined) {
      this.record = undefined;
      return this.reject(record.lines[0]!.number, record.lines, `The record is not valid CSV: ${problem}.`);
    }
    if (record.scan === 'quoted') {
      // The quoted field goes on over the line break.
      record.cell += '\n';
      if (record.bytes > this.maxRecordBytes)
        this.unclosed(`a quoted field is not closed within ${this.maxRecordBytes} bytes`);
      return;
    }
    record.cells.push(record.cell);
    this.record = undefined;
    this.complete(record);
  }

  /**
   * The open record's quote never closes: the record is rejected as the one line it starts on,
   * and the lines after it are read again, as records of their own.
   */
  private unclosed(problem: string): void {
    const record = this.record!;
    this.record = undefined;
    const [first, ...rest] = record.lines;
    this.queue.unshift(...rest);
    this.reject(
      first!.number,
      [first!],
      `The record is not valid CSV: ${problem}; the lines after it are read as records of their own.`,
    );
  }

  private complete(record: OpenRecord): void {
    const line = record.lines[0]!.number;
    if (record.lines.some((l) => l.invalidBytes !== undefined))
      return this.reject(line, record.lines, 'The record is not valid UTF-8.');
    if (this.header === undefined) {
      const header = readHeader(record.cells);
      if (typeof header === 'string') {
        // Without a header no record can be read: nothing past this line is claimed.
        this.finished = true;
        this.out.push({ line, source: { header: '', raw: undefined }, unreadable: header });
      } else {
        this.header = { raw: rawText(record.lines), columns: header, width: record.cells.length };
      }
      return;
    }
    const source = { header: this.header.raw, raw: rawSource(record.lines) };
    if (record.cells.length !== this.header.width) {
      this.out.push({
        line,
        source,
        unreadable: `The record has ${record.cells.length} fields; the header has ${this.header.width}.`,
      });
      return;
    }
    const fields: Partial<Record<Column, string>> = {};
    for (const column of COLUMNS) {
      const index = this.header.columns[column];
      const cell = index === undefined ? undefined : record.cells[index];
      if (cell !== undefined && cell !== '') fields[column] = cell;
    }
    this.out.push({ line, source, plant: { fields, numberLiteral: cellAsLiteral } });
  }

  private reject(line: number, lines: readonly PhysicalLine[], message: string): void {
    if (this.header === undefined) {
      this.finished = true;
      this.out.push({
        line,
        source: { header: '', raw: undefined },
        unreadable: `The first line must be the CSV header id,name,tag (tag optional, any order): ${message}`,
      });
      return;
    }
    const raw = lines.length === 0 || lines.some((l) => l.text === undefined) ? undefined : rawSource(lines);
    this.out.push({ line, source: { header: this.header.raw, raw }, unreadable: message });
  }
}

/**
 * Reads one line's characters into the record, continuing its state (a quoted field may span
 * lines). Returns what is wrong with the quoting, if anything.
 */
function scan(record: OpenRecord, text: string): string | undefined {
  let { cell, scan: state } = record;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    switch (state) {
      case 'fieldStart':
        if (char === QUOTE) state = 'quoted';
        else if (char === COMMA) record.cells.push('');
        else {
          cell = char;
          state = 'unquoted';
        }
        break;
      case 'unquoted':
        if (char === COMMA) {
          record.cells.push(cell);
          cell = '';
          state = 'fieldStart';
        } else if (char === QUOTE) {
          return 'a quote inside an unquoted field (quote the whole field, and write the quote as "")';
        } else cell += char;
        break;
      case 'quoted':
        if (char === QUOTE) state = 'quoteInQuoted';
        else cell += char;
        break;
      case 'quoteInQuoted':
        if (char === QUOTE) {
          cell += QUOTE;
          state = 'quoted';
        } else if (char === COMMA) {
          record.cells.push(cell);
          cell = '';
          state = 'fieldStart';
        } else {
          return 'a closing quote is followed by other characters (write a quote inside a quoted field as "")';
        }
        break;
    }
  }
  // A line ends a field unless a quoted one is still open.
  record.cell = cell;
  record.scan = state === 'quoted' ? 'quoted' : 'fieldStart';
  return undefined;
}

/** Column positions by name, or the message that says why the header is not one. */
function readHeader(cells: readonly string[]): Partial<Record<Column, number>> | string {
  const columns: Partial<Record<Column, number>> = {};
  const unknown = cells.filter((cell, index) => {
    if (!(COLUMNS as readonly string[]).includes(cell) || columns[cell as Column] !== undefined) return true;
    columns[cell as Column] = index;
    return false;
  });
  if (unknown.length > 0 || columns.id === undefined || columns.name === undefined) {
    return `The first line must be the header id,name,tag (tag optional, any order), not ${JSON.stringify(cells.join(','))}.`;
  }
  return columns;
}

/** A record's lines as in the file, each with its own line break (CRLF where the file had it). */
function rawText(lines: readonly PhysicalLine[]): string {
  return lines.map((line) => withoutBom(line) + line.lineBreak).join('');
}

/** A record as in the file: its text, or its exact bytes when they are not UTF-8. */
function rawSource(lines: readonly PhysicalLine[]): string | Buffer {
  if (lines.every((line) => line.invalidBytes === undefined)) return rawText(lines);
  return Buffer.concat(
    lines.flatMap((line) => {
      const bytes = line.invalidBytes ?? Buffer.from(withoutBom(line), 'utf8');
      const start = line.number === 1 && bytes.subarray(0, BOM_BYTES.length).equals(BOM_BYTES) ? BOM_BYTES.length : 0;
      return [bytes.subarray(start), Buffer.from(line.lineBreak)];
    }),
  );
}

function withoutBom(line: PhysicalLine): string {
  const text = line.text ?? '';
  return line.number === 1 && text.startsWith(BOM) ? text.slice(BOM.length) : text;
}
