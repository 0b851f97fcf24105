import { checkNewPlantShape, type ImportLine } from '@plantstore/domain';
import { parse, type CsvError, type Options } from 'csv-parse';

const COLUMNS = ['id', 'name', 'tag'] as const;
type Column = (typeof COLUMNS)[number];

// Every CSV cell is text: a present id is taken as the literal of a number, as in JSON.
const cellAsLiteral = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

interface RawRecord {
  readonly record: string[];
  readonly raw: string;
}

/** The CSV header as read, kept for the rejects file. */
export interface CsvSource {
  readonly header: string;
  readonly raw: string | undefined;
}

/**
 * CSV (RFC 4180, header `id,name,tag` in any order, `tag` optional) → import lines. Quoted
 * fields may hold commas, quotes and line breaks; a UTF-8 BOM is dropped. An empty cell is an
 * absent field (a tag is never empty, so an empty tag cell means no tag). A record is
 * numbered by the line it starts on.
 *
 * Broken quoting leaves the rest of the file unreadable: the records before it are still
 * imported, and it ends the input as one unreadable line.
 */
export async function* csvLines(
  chunks: AsyncIterable<Buffer>,
  maxRecordBytes: number,
): AsyncGenerator<ImportLine<CsvSource>[]> {
  const records: RawRecord[] = [];
  // on_record runs synchronously for each record: records parsed before an error are kept,
  // which the stream interface would drop along with its buffer.
  const options: Options = {
    bom: true,
    raw: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: maxRecordBytes,
    on_record: (entry: unknown) => {
      // With `raw`, each record arrives as { record, raw }.
      records.push(entry as RawRecord);
      return null;
    },
  };
  const parser = parse(options);
  parser.resume();
  // Failures come back through write() and end(); without a listener the stream would also throw them.
  parser.on('error', () => {});
  const reader = new RecordReader();
  let failure: CsvError | undefined;
  for await (const chunk of chunks) {
    failure = await write(parser, chunk);
    const lines = reader.read(records.splice(0));
    if (lines.length > 0) yield lines;
    if (failure || reader.finished) break;
  }
  if (!failure && !reader.finished) failure = await end(parser);
  const lines = reader.read(records.splice(0));
  if (failure) lines.push(reader.broken(failure));
  if (lines.length > 0) yield lines;
}

class RecordReader {
  private linesBefore = 0;
  private pendingCarriageReturn = false;
  private header: { raw: string; columns: Partial<Record<Column, number>>; width: number } | undefined;
  finished = false;

  read(records: readonly RawRecord[]): ImportLine<CsvSource>[] {
    const lines: ImportLine<CsvSource>[] = [];
    for (const { record, raw } of records) {
      if (this.finished) break;
      // csv-parse leaves the LF of a CRLF delimiter to the next record's raw text: count that break once.
      const own = this.pendingCarriageReturn && raw.startsWith('\n') ? raw.slice(1) : raw;
      const leading = LEADING_BREAKS.exec(own)?.[0] ?? '';
      const line = this.linesBefore + 1 + countBreaks(leading);
      this.linesBefore += countBreaks(own);
      this.pendingCarriageReturn = own.endsWith('\r');
      const text = own.slice(leading.length);
      if (this.header === undefined) {
        const header = readHeader(record);
        if (typeof header === 'string') {
          this.finished = true;
          lines.push({ line, source: { header: '', raw: undefined }, unreadable: header });
        } else {
          this.header = { raw: withLineBreak(text), columns: header, width: record.length };
        }
        continue;
      }
      const source = { header: this.header.raw, raw: withLineBreak(text) };
      if (record.length !== this.header.width) {
        lines.push({
          line,
          source,
          unreadable: `The record has ${record.length} fields; the header has ${this.header.width}.`,
        });
        continue;
      }
      const fields: Partial<Record<Column, string>> = {};
      for (const column of COLUMNS) {
        const index = this.header.columns[column];
        const cell = index === undefined ? undefined : record[index];
        if (cell !== undefined && cell !== '') fields[column] = cell;
      }
      lines.push({ line, source, plant: checkNewPlantShape(fields, cellAsLiteral) });
    }
    return lines;
  }

  /** The unreadable line that ends an input whose quoting is broken. */
  broken(error: CsvError): ImportLine<CsvSource> {
    this.finished = true;
    const reason =
      error.code === 'CSV_MAX_RECORD_SIZE' ? 'a record is too long (an unclosed quote?)' : csvProblem(error);
    return {
      line: this.linesBefore + 1,
      source: { header: this.header?.raw ?? '', raw: undefined },
      unreadable: `The CSV cannot be read from here on: ${reason}.`,
    };
  }
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

function csvProblem(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a closing quote is followed by other characters (write a quote inside a quoted field as "")';
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'a closing quote is followed by other characters';
    default:
      // csv-parse counts lines its own way; the line number given is ours.
      return error.message.replace(/ at line \d+.*$/, '').toLowerCase();
  }
}

function write(parser: ReturnType<typeof parse>, chunk: Buffer): Promise<CsvError | undefined> {
  return new Promise((resolve) =>
    parser.write(chunk, (error) => resolve((error ?? undefined) as CsvError | undefined)),
  );
}

function end(parser: ReturnType<typeof parse>): Promise<CsvError | undefined> {
  return new Promise((resolve) => {
    parser.once('error', (error) => resolve(error as CsvError));
    parser.end(() => resolve(undefined));
  });
}

const LEADING_BREAKS = /^(?:\r\n|\r|\n)+/;
const LINE_BREAK = /\r\n|\r|\n/g;

function countBreaks(text: string): number {
  return text.match(LINE_BREAK)?.length ?? 0;
}

/** A record as a line of the rejects file: with its own line break, CRLF where the file had it. */
function withLineBreak(raw: string): string {
  return raw.endsWith('\n') ? raw : `${raw}\n`;
}
