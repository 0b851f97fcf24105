import { NewPlantShape, Plant } from '@plantstore/domain';
import { csvLines } from '../../src/plants/csv-lines.js';

const LIMIT = 64;

async function* chunked(...chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield chunk;
}

/** Every entry the reader gives for `file`, read as `chunks` (the whole file in one by default). */
async function read(file: string | Buffer, { limit = LIMIT, splitAt = [] as number[] } = {}) {
  const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : file;
  const cuts = [0, ...splitAt, bytes.length];
  const chunks = cuts.slice(1).map((end, index) => bytes.subarray(cuts[index], end));
  const entries = [];
  for await (const group of csvLines(chunked(...chunks), limit)) entries.push(...group);
  return entries;
}

// A record's present cells, each a number's literal when the domain reads it as a number.
const plant = (line: number, header: string, raw: string, fields: { id?: unknown; name?: unknown; tag?: unknown }) => ({
  line,
  source: { header, raw },
  plant: { fields, numberLiteral: expect.any(Function) as unknown },
});
const unreadable = (line: number, header: string, raw: string | Buffer | undefined, message: string) => ({
  line,
  source: { header, raw },
  unreadable: message,
});
const notCsv = (problem: string) => `The record is not valid CSV: ${problem}.`;
const UNCLOSED = notCsv('a quoted field is never closed; the lines after it are read as records of their own');

describe('csvLines', () => {
  describe('the header', () => {
    it('names the columns of every record after it, and is kept for the rejects file', async () => {
      expect(await read('id,name,tag\n1,Fern,Polypodiales\n')).toEqual([
        plant(2, 'id,name,tag\n', '1,Fern,Polypodiales\n', { id: '1', name: 'Fern', tag: 'Polypodiales' }),
      ]);
    });

    it('takes the columns in any order, tag optional, and quoted like any cell', async () => {
      expect(await read('name,id\nBasil,10\n')).toEqual([
        plant(2, 'name,id\n', 'Basil,10\n', { id: '10', name: 'Basil' }),
      ]);
      expect(await read('"tag","name","id"\nLamiaceae,Sage,11\n')).toEqual([
        plant(2, '"tag","name","id"\n', 'Lamiaceae,Sage,11\n', { id: '11', name: 'Sage', tag: 'Lamiaceae' }),
      ]);
    });

    it('may follow blank lines, which still count as lines', async () => {
      expect(await read('\n\nid,name\n1,Fern\n')).toEqual([
        plant(4, 'id,name\n', '1,Fern\n', { id: '1', name: 'Fern' }),
      ]);
    });

    it.each([
      ['records without a header', '1,Basil,herb\n2,Sage,herb\n', '1,Basil,herb'],
      ['an unknown column', 'id,name,colour\n1,Basil,green\n', 'id,name,colour'],
      ['a column named twice', 'id,name,name\n1,Basil,Sage\n', 'id,name,name'],
      ['no name column', 'id,tag\n1,herb\n', 'id,tag'],
      ['no id column', 'name\nBasil\n', 'name'],
    ])('refuses %s at line 1, and reads nothing after it', async (_case, file, cells) => {
      expect(await read(file)).toEqual([
        unreadable(
          1,
          '',
          undefined,
          `The first line must be the header id,name,tag (tag optional, any order), not ${JSON.stringify(cells)}.`,
        ),
      ]);
    });

    it('refuses a header with broken quoting, saying a header was expected', async () => {
      expect(await read('id,"name\n1,Basil\n')).toEqual([
        unreadable(
          1,
          '',
          undefined,
          `The first line must be the CSV header id,name,tag (tag optional, any order): ${UNCLOSED}`,
        ),
      ]);
    });

    it('gives nothing for an empty file, blank lines or a header alone', async () => {
      expect(await read('')).toEqual([]);
      expect(await read('\n\r\n\n')).toEqual([]);
      expect(await read('id,name,tag\n')).toEqual([]);
    });
  });

  describe('quoting (RFC 4180)', () => {
    it('reads commas and doubled quotes inside quoted fields', async () => {
      expect(await read('id,name,tag\n1,"Ficus, weeping","say ""hi"""\n')).toEqual([
        plant(2, 'id,name,tag\n', '1,"Ficus, weeping","say ""hi"""\n', {
          id: '1',
          name: 'Ficus, weeping',
          tag: 'say "hi"',
        }),
      ]);
    });

    it('reads a quoted line break as part of its field: one record, numbered by its first line', async () => {
      expect(await read('id,name,tag\n1,"Two\n\nlines",x\n2,After,\n')).toEqual([
        plant(2, 'id,name,tag\n', '1,"Two\n\nlines",x\n', { id: '1', name: 'Two\n\nlines', tag: 'x' }),
        plant(5, 'id,name,tag\n', '2,After,\n', { id: '2', name: 'After' }),
      ]);
    });

    it('reads CRLF files, and gives each record back with its own line breaks', async () => {
      expect(await read('id,name,tag\r\n1,"Two\r\nlines",x\r\n2,Fern,\r\n')).toEqual([
        plant(2, 'id,name,tag\r\n', '1,"Two\r\nlines",x\r\n', { id: '1', name: 'Two\nlines', tag: 'x' }),
        plant(4, 'id,name,tag\r\n', '2,Fern,\r\n', { id: '2', name: 'Fern' }),
      ]);
    });

    it('reads a last record without a line break', async () => {
      expect(await read('id,name\n1,"Fern"')).toEqual([plant(2, 'id,name\n', '1,"Fern"\n', { id: '1', name: 'Fern' })]);
    });
  });

  describe('empty cells', () => {
    it('are absent fields: an empty tag, quoted or not, is no tag', async () => {
      expect(await read('id,name,tag\n1,Fern,\n2,Moss,""\n')).toEqual([
        plant(2, 'id,name,tag\n', '1,Fern,\n', { id: '1', name: 'Fern' }),
        plant(3, 'id,name,tag\n', '2,Moss,""\n', { id: '2', name: 'Moss' }),
      ]);
    });

    it('leave a required field missing, for the domain to name', async () => {
      const entries = await read('id,name,tag\n,Fern,x\n4,,x\n');
      expect(entries).toEqual([
        plant(2, 'id,name,tag\n', ',Fern,x\n', { name: 'Fern', tag: 'x' }),
        plant(3, 'id,name,tag\n', '4,,x\n', { id: '4', tag: 'x' }),
      ]);
      const violations = entries.map((entry) => {
        const parsed = 'plant' in entry ? Plant.parseRecord(entry.plant) : undefined;
        return parsed?.ok === false ? parsed.violations : [];
      });
      expect(violations).toEqual([[NewPlantShape.idRequired], [NewPlantShape.nameRequired]]);
    });

    it('hold an id as the text of a number, as JSON holds its literal', async () => {
      const [entry] = await read('id,name\n9007199254740993,Fern\n');
      const parsed = entry !== undefined && 'plant' in entry ? Plant.parseRecord(entry.plant) : undefined;
      expect(parsed?.ok && parsed.plant.id.toString()).toBe('9007199254740993');
    });
  });

  describe('unreadable records, each with the line it starts on', () => {
    const header = 'id,name,tag\n';

    it('a record with another number of fields than the header', async () => {
      expect(await read(`${header}1,Fern\n2,Moss,x,extra\n3,Ivy,\n`)).toEqual([
        unreadable(2, header, '1,Fern\n', 'The record has 2 fields; the header has 3.'),
        unreadable(3, header, '2,Moss,x,extra\n', 'The record has 4 fields; the header has 3.'),
        plant(4, header, '3,Ivy,\n', { id: '3', name: 'Ivy' }),
      ]);
    });

    it('a quote inside an unquoted field ends its record at the end of that line', async () => {
      expect(await read(`${header}1,Bro"ken,x\n2,Fern,\n`)).toEqual([
        unreadable(
          2,
          header,
          '1,Bro"ken,x\n',
          notCsv('a quote inside an unquoted field (quote the whole field, and write the quote as "")'),
        ),
        plant(3, header, '2,Fern,\n', { id: '2', name: 'Fern' }),
      ]);
    });

    it('text after a closing quote rejects the whole record, all its lines', async () => {
      expect(await read(`${header}1,"One\nline" junk,x\n2,Fern,\n`)).toEqual([
        unreadable(
          2,
          header,
          '1,"One\nline" junk,x\n',
          notCsv('a closing quote is followed by other characters (write a quote inside a quoted field as "")'),
        ),
        plant(4, header, '2,Fern,\n', { id: '2', name: 'Fern' }),
      ]);
    });

    it('a quote never closed rejects the line it opens on; the lines after it are records of their own', async () => {
      expect(await read(`${header}1,"Open,x\n2,Fern,\n\n3,Moss,y`)).toEqual([
        unreadable(2, header, '1,"Open,x\n', UNCLOSED),
        plant(3, header, '2,Fern,\n', { id: '2', name: 'Fern' }),
        plant(5, header, '3,Moss,y\n', { id: '3', name: 'Moss', tag: 'y' }),
      ]);
    });
  });

  describe('bytes that are not UTF-8', () => {
    // A Latin-1 "Café": one byte, 0xE9, where UTF-8 needs two.
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const header = 'id,name,tag\n';

    it('refuse their record, given back byte for byte, as the NDJSON reader and the API refuse them', async () => {
      expect(await read(latin1(`${header}1,Café,x\n2,Fern,\n`))).toEqual([
        unreadable(2, header, latin1('1,Café,x\n'), 'The record is not valid UTF-8.'),
        plant(3, header, '2,Fern,\n', { id: '2', name: 'Fern' }),
      ]);
    });

    it('refuse a whole quoted record when any of its lines holds them', async () => {
      expect(await read(latin1(`${header}1,"Two\nlines, Café",x\n2,Fern,\n`))).toEqual([
        unreadable(2, header, latin1('1,"Two\nlines, Café",x\n'), 'The record is not valid UTF-8.'),
        plant(4, header, '2,Fern,\n', { id: '2', name: 'Fern' }),
      ]);
    });

    it('are given back byte for byte in a record refused for its quoting', async () => {
      expect(await read(latin1(`${header}1,Caf"é,x\n`))).toEqual([
        unreadable(
          2,
          header,
          latin1('1,Caf"é,x\n'),
          notCsv('a quote inside an unquoted field (quote the whole field, and write the quote as "")'),
        ),
      ]);
    });

    it('in the header leave no header', async () => {
      expect(await read(latin1('id,name,tagé\n1,Fern,\n'))).toEqual([
        unreadable(
          1,
          '',
          undefined,
          'The first line must be the CSV header id,name,tag (tag optional, any order): The record is not valid UTF-8.',
        ),
      ]);
    });
  });

  describe('a UTF-8 BOM', () => {
    it('is dropped before the header, also from the header given back', async () => {
      expect(await read('\uFEFFid,name\r\n1,Fern\r\n')).toEqual([
        plant(2, 'id,name\r\n', '1,Fern\r\n', { id: '1', name: 'Fern' }),
      ]);
    });

    it('is text anywhere else', async () => {
      expect(await read('id,name\n1,\uFEFFFern\n')).toEqual([
        plant(2, 'id,name\n', '1,\uFEFFFern\n', { id: '1', name: '\uFEFFFern' }),
      ]);
    });
  });

  describe('a file read in chunks', () => {
    // A BOM, CRLF, quoted commas, doubled quotes and line breaks, multi-byte characters and a broken record.
    const file = Buffer.from(
      '\uFEFFid,name,tag\r\n1,"Ficus, ""weeping""",é\r\n2,"Two\r\nlines 🌿",\r\n3,Bro"ken,x\r\n4,Ivy,🌿\r\n',
      'utf8',
    );

    it('gives the same records wherever a chunk ends: mid quote, mid CRLF, mid character', async () => {
      const whole = await read(file);
      expect(whole).toHaveLength(4);
      for (let at = 1; at < file.length; at++)
        expect({ at, entries: await read(file, { splitAt: [at] }) }).toEqual({ at, entries: whole });
    });

    it('gives the same records one byte at a time', async () => {
      const everyByte = Array.from({ length: file.length - 1 }, (_, index) => index + 1);
      expect(await read(file, { splitAt: everyByte })).toEqual(await read(file));
    });
  });

  describe('the record size limit', () => {
    const header = 'id,name\n';

    it('keeps a line of exactly the limit, refuses a longer one without keeping it, and reads on', async () => {
      const name = (length: number) => 'x'.repeat(length - '1,'.length);
      expect(await read(`${header}1,${name(LIMIT)}\n2,${name(LIMIT + 1)}\n3,Fern\n`)).toEqual([
        plant(2, header, `1,${name(LIMIT)}\n`, { id: '1', name: name(LIMIT) }),
        unreadable(3, header, undefined, `The line is longer than ${LIMIT} bytes.`),
        plant(4, header, '3,Fern\n', { id: '3', name: 'Fern' }),
      ]);
    });

    it('ends a quoted field still open past the limit: its first line is refused, the lines after it are read again', async () => {
      const lines = Array.from({ length: 5 }, (_, index) => `${index + 2},Plant ${index + 2} with a long name`);
      expect(await read(`${header}1,"Open\n${lines.join('\n')}\n`)).toEqual([
        unreadable(
          2,
          header,
          '1,"Open\n',
          notCsv(
            `a quoted field is not closed within ${LIMIT} bytes; the lines after it are read as records of their own`,
          ),
        ),
        ...lines.map((line, index) =>
          plant(index + 3, header, `${line}\n`, { id: String(index + 2), name: line.slice(2) }),
        ),
      ]);
    });

    it('ends an open quoted field at a line over the limit, which is then refused on its own', async () => {
      expect(await read(`${header}1,"Open\n2,${'x'.repeat(LIMIT)}\n3,Fern\n`)).toEqual([
        unreadable(
          2,
          header,
          '1,"Open\n',
          notCsv(
            `a quoted field is not closed within ${LIMIT} bytes; the lines after it are read as records of their own`,
          ),
        ),
        unreadable(3, header, undefined, `The line is longer than ${LIMIT} bytes.`),
        plant(4, header, '3,Fern\n', { id: '3', name: 'Fern' }),
      ]);
    });

    it('refuses a header over the limit as no header', async () => {
      expect(await read(`id,name,${'x'.repeat(LIMIT)}\n1,Fern\n`)).toEqual([
        unreadable(
          1,
          '',
          undefined,
          `The first line must be the CSV header id,name,tag (tag optional, any order): The line is longer than ${LIMIT} bytes.`,
        ),
      ]);
    });
  });
});
