import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_ROWS_PER_STATEMENT, type DataSource } from '@plantstore/adapters-persistence';
import { testEngines, type TestStore } from '../../../packages/adapters-persistence/test/engines.js';
import { lastLine, plantstore, startPlantstore, type Run } from './support/cli-process.js';
import { retire } from './support/retire.js';

interface Summary {
  imported: number;
  unchanged: number;
  conflicts: number;
  invalid: number;
  seconds: number;
  lines: number;
  interrupted: boolean;
}

interface Row {
  id: string;
  name: string | null;
  tag: string | null;
}

const summaryOf = (run: Run) => JSON.parse(lastLine(run.stdout)) as Summary;
const stderrLines = (run: Run) =>
  run.stderr
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '');

describe.each(testEngines())('plantstore plants import on $name', (engine) => {
  let store: TestStore;
  let dataSource: DataSource;
  let dir: string;

  beforeAll(async () => {
    store = await engine.createStore();
    dataSource = await store.open();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await store.remove();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plantstore-import-'));
    await dataSource.query('DELETE FROM plant');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], input?: string | Buffer) =>
    plantstore(args, { databaseUrl: store.url, cwd: dir, ...(input === undefined ? {} : { input }) });
  const file = (name: string, content: string | Buffer) => {
    writeFileSync(join(dir, name), content);
    return name;
  };
  const rows = async (): Promise<Row[]> => {
    const found: Row[] = await dataSource.query('SELECT CAST(id AS TEXT) AS id, name, tag FROM plant ORDER BY id');
    return found;
  };

  describe('a mixed NDJSON file', () => {
    const lines = [
      '{"id": 1, "name": "Monstera", "tag": "Araceae"}', // 1 imported
      '{"id": 9223372036854775807, "name": "Max"}', // 2 imported, exact
      '', // 3 blank: skipped
      '{"id": 1.5, "name": ""}', // 4 invalid: two violations
      'not json', // 5 invalid JSON
      '{"id": 1, "name": "Monstera", "tag": "Other"}', // 6 conflict with line 1
      '{"id": 1, "name": "Monstera", "tag": "Araceae"}', // 7 same as line 1: unchanged
      '[1, 2]', // 8 not an object
      '{"id": "2", "name": 5}', // 9 shape violations
      '{"id": 50, "name": "Pothos", "tag": null}', // 10 tag null
      '{"id": 51, "name": "Ivy", "id": 52}', // 11 duplicate key, refused as by the API
      '{"id": 9223372036854775808, "name": "Too big"}', // 12 out of range
    ];

    it('imports the valid lines, counts replays as unchanged, and reports the others by line with the API message', async () => {
      file('mixed.ndjson', `${lines.join('\n')}\n`);
      const result = run(['plants', 'import', 'mixed.ndjson', '--json']);

      expect(result.status).toBe(1);
      expect(summaryOf(result)).toMatchObject({
        imported: 2,
        unchanged: 1,
        conflicts: 1,
        invalid: 7,
        lines: 12,
        interrupted: false,
      });
      expect(stderrLines(result)).toEqual([
        'line 4: The plant is invalid: id must be an integer between -9223372036854775808 and 9223372036854775807; name must be 1 to 200 characters long (got 0).',
        "line 5: The line is not valid JSON: Unexpected token 'o'.",
        'line 8: The line must be a JSON object, not an array.',
        'line 9: The plant is invalid: id must be a JSON number; name must be a string.',
        'line 10: The plant is invalid: tag must be a string if present; omit it for no tag.',
        expect.stringMatching(/^line 11: The line is not valid JSON: Duplicate key 'id'/),
        'line 12: The plant is invalid: id must be an integer between -9223372036854775808 and 9223372036854775807.',
        'line 6: A plant with id 1 already exists with a different name or tag; choose another id.',
      ]);
      expect(await rows()).toEqual([
        { id: '1', name: 'Monstera', tag: 'Araceae' },
        { id: '9223372036854775807', name: 'Max', tag: null },
      ]);
    });

    it('writes the rejected lines to --rejects exactly as they were, ready to fix and import again', async () => {
      file('mixed.ndjson', `${lines.join('\r\n')}\r\n`);
      const result = run(['plants', 'import', 'mixed.ndjson', '--rejects', 'rejects.ndjson']);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('8 rejected lines written to rejects.ndjson');
      const rejected = readFileSync(join(dir, 'rejects.ndjson'), 'utf8').trimEnd().split('\n');
      expect(rejected).toEqual([lines[3], lines[4], lines[7], lines[8], lines[9], lines[10], lines[11], lines[5]]);

      file('rejects.ndjson', '{"id": 3, "name": "Fixed"}\n');
      const fixed = run(['plants', 'import', 'rejects.ndjson', '--json', '--rejects', 'rejects.ndjson']);
      expect(summaryOf(fixed)).toMatchObject({ imported: 1, invalid: 0, conflicts: 0 });
      expect(fixed.status).toBe(0);
      expect(readFileSync(join(dir, 'rejects.ndjson'), 'utf8')).toBe('');
    });
  });

  it('changes nothing when the same import runs again, and says so', async () => {
    file('plants.ndjson', ['{"id":1,"name":"a"}', '{"id":2,"name":"b","tag":"t"}', '{"id":3,"name":"c"}'].join('\n'));
    expect(run(['plants', 'import', 'plants.ndjson']).stdout).toContain(
      'Imported 3 plants; 0 unchanged, 0 conflicts, 0 retired, 0 invalid.',
    );
    const before = await rows();

    const again = run(['plants', 'import', 'plants.ndjson']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Nothing to import: all 3 plants were already stored.');
    expect(await rows()).toEqual(before);
  });

  describe('ids of deleted plants', () => {
    it('rejects a line whose id was retired, whatever its content, with its line and reason, and imports the rest', async () => {
      file('first.ndjson', '{"id": 5, "name": "Fern"}\n');
      expect(run(['plants', 'import', 'first.ndjson']).status).toBe(0);
      await retire(dataSource, '5');
      file('again.ndjson', '{"id": 5, "name": "Fern"}\n{"id": 6, "name": "Aloe"}\n');
      const result = run(['plants', 'import', 'again.ndjson', '--json']);
      expect(result.status).toBe(1);
      expect(summaryOf(result)).toMatchObject({ imported: 1, unchanged: 0, conflicts: 0, retired: 1, invalid: 0 });
      expect(stderrLines(result)).toEqual([
        'line 1: The id 5 belonged to a plant that was deleted, and ids are never used again; choose another id.',
      ]);
      expect((await rows()).map((row) => [row.id, row.name])).toEqual([
        ['5', null],
        ['6', 'Aloe'],
      ]);
    });
  });

  describe('CSV', () => {
    it('reads quoted commas, quotes and line breaks, a BOM and CRLF, and numbers records by the line they start on', async () => {
      const csv = [
        '\uFEFFid,name,tag',
        '1,"Ficus, weeping","say ""hi"""',
        '2,"Two',
        'lines",',
        '',
        '3,Plain,Moraceae',
        '4,,x',
        '5,"a",b,extra',
        '-9223372036854775808,Min,',
      ].join('\r\n');
      file('plants.csv', Buffer.from(csv, 'utf8'));
      const result = run(['plants', 'import', 'plants.csv', '--json', '--rejects', 'rejects.csv']);

      expect(summaryOf(result)).toMatchObject({ imported: 3, unchanged: 0, conflicts: 0, invalid: 3 });
      // The quoted line break makes lines 3-4 one record, which the name rules then refuse as the API would.
      expect(stderrLines(result)).toEqual([
        'line 3: The plant is invalid: name must not contain control characters (U+0000-U+001F, U+007F-U+009F).',
        'line 7: The plant is invalid: name is required.',
        'line 8: The record has 4 fields; the header has 3.',
      ]);
      expect(await rows()).toEqual([
        { id: '-9223372036854775808', name: 'Min', tag: null },
        { id: '1', name: 'Ficus, weeping', tag: 'say "hi"' },
        { id: '3', name: 'Plain', tag: 'Moraceae' },
      ]);
      expect(readFileSync(join(dir, 'rejects.csv'), 'utf8')).toBe(
        'id,name,tag\r\n2,"Two\r\nlines",\r\n4,,x\r\n5,"a",b,extra\r\n',
      );
    });

    it('takes the columns in any order, tag optional', async () => {
      file('plants.csv', 'name,id\nBasil,10\n');
      expect(run(['plants', 'import', 'plants.csv']).status).toBe(0);
      expect(await rows()).toEqual([{ id: '10', name: 'Basil', tag: null }]);
    });

    it('refuses a file whose first line is not the header', async () => {
      file('plants.csv', '1,Basil,herb\n2,Sage,herb\n');
      const result = run(['plants', 'import', 'plants.csv', '--json']);
      expect(result.status).toBe(1);
      expect(stderrLines(result)).toEqual([
        'line 1: The first line must be the header id,name,tag (tag optional, any order), not "1,Basil,herb".',
      ]);
      expect(await rows()).toEqual([]);
    });

    describe('broken quoting rejects its own record, never the records after it', () => {
      // 12 records; the 4th is broken (line 5, after the header).
      const twelve = (fourth: string) =>
        ['id,name', ...Array.from({ length: 12 }, (_, i) => (i === 3 ? fourth : `${i + 1},Plant ${i + 1}`))].join(
          '\n',
        ) + '\n';

      it.each([
        [
          'a quote inside an unquoted field',
          '4,Bro"ken',
          'a quote inside an unquoted field (quote the whole field, and write the quote as "")',
        ],
        [
          'text after a closing quote',
          '4,"Closed" junk',
          'a closing quote is followed by other characters (write a quote inside a quoted field as "")',
        ],
        [
          'an unclosed quote',
          '4,"Unclosed',
          'a quoted field is never closed; the lines after it are read as records of their own',
        ],
      ])('%s: the other 11 records are imported, the 4th is in --rejects with its line', async (_, fourth, problem) => {
        file('plants.csv', twelve(fourth));
        const result = run(['plants', 'import', 'plants.csv', '--json', '--rejects', 'rejects.csv']);

        expect(result.status).toBe(1);
        expect(stderrLines(result)).toEqual([`line 5: The record is not valid CSV: ${problem}.`]);
        const summary = summaryOf(result);
        expect(summary).toMatchObject({ imported: 11, unchanged: 0, conflicts: 0, invalid: 1, lines: 13 });
        expect(summary.imported + summary.unchanged + summary.conflicts + summary.invalid).toBe(12);
        expect((await rows()).map((row) => Number(row.id)).sort((a, b) => a - b)).toEqual([
          1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12,
        ]);
        expect(readFileSync(join(dir, 'rejects.csv'), 'utf8')).toBe(`id,name\n${fourth}\n`);
      });

      it('an unclosed quote to the end: its first line is rejected, the lines after it read as records', async () => {
        file('plants.csv', 'id,name,tag\n1,One,\n2,"Two\n3,Three,x\n\n4,Four,\n');
        const result = run(['plants', 'import', 'plants.csv', '--json', '--rejects', 'rejects.csv']);

        expect(stderrLines(result)).toEqual([
          'line 3: The record is not valid CSV: a quoted field is never closed; the lines after it are read as records of their own.',
        ]);
        expect(summaryOf(result)).toMatchObject({ imported: 3, invalid: 1, lines: 6 });
        expect((await rows()).map((row) => row.id)).toEqual(['1', '3', '4']);
        expect(readFileSync(join(dir, 'rejects.csv'), 'utf8')).toBe('id,name,tag\n2,"Two\n');
      });

      it('a quoted line break still makes one record of two lines, rejected as a whole when its quoting is broken', async () => {
        file('plants.csv', 'id,name\n1,"One\nline" junk\n2,Two\n');
        const result = run(['plants', 'import', 'plants.csv', '--json', '--rejects', 'rejects.csv']);

        expect(stderrLines(result)).toEqual([
          'line 2: The record is not valid CSV: a closing quote is followed by other characters (write a quote inside a quoted field as "").',
        ]);
        expect((await rows()).map((row) => row.id)).toEqual(['2']);
        expect(readFileSync(join(dir, 'rejects.csv'), 'utf8')).toBe('id,name\n1,"One\nline" junk\n');
      });
    });
  });

  // /proc/self/mem (Linux): a file whose every read fails (EIO), as a failing disk's would.
  it('fails (exit 1) naming the line it cannot read, and claims nothing: no summary', () => {
    const result = run(['plants', 'import', '/proc/self/mem', '--format', 'csv', '--json']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(stderrLines(result)).toEqual([
      "plantstore: failed: cannot read '/proc/self/mem' at line 1 (EIO: i/o error, read); the whole batches before it are stored, and running the same command again completes the import once the file can be read",
    ]);
  });

  describe('line counts', () => {
    const tenLines = Array.from({ length: 10 }, (_, i) => (i === 4 ? '' : `{"id":${i + 1},"name":"Plant ${i + 1}"}`));

    it('count every line of the file, a blank one too, in the summary and in JSON', async () => {
      file('ten.ndjson', `${tenLines.join('\n')}\n`);
      const human = run(['plants', 'import', 'ten.ndjson']);
      expect(human.stdout).toMatch(/^10 lines in /m);

      file('ten-again.ndjson', tenLines.join('\n'));
      expect(summaryOf(run(['plants', 'import', 'ten-again.ndjson', '--json']))).toMatchObject({
        imported: 0,
        unchanged: 9,
        lines: 10,
      });
    });

    it('count trailing blank lines and a CSV header as lines of the file', async () => {
      file('trailing.ndjson', '{"id":1,"name":"a"}\n\n\n');
      expect(summaryOf(run(['plants', 'import', 'trailing.ndjson', '--json']))).toMatchObject({
        imported: 1,
        lines: 3,
      });
      file('plants.csv', 'id,name\n2,b\n\n3,c\n');
      expect(summaryOf(run(['plants', 'import', 'plants.csv', '--json']))).toMatchObject({ imported: 2, lines: 4 });
    });
  });

  it('keeps stdout for the summary: rejected lines go to stderr, with or without --json', async () => {
    file('plants.ndjson', '{"id":1,"name":"a"}\nnot json\n');
    const result = run(['plants', 'import', 'plants.ndjson']);

    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^Imported 1 plant; 0 unchanged, 0 conflicts, 0 retired, 1 invalid\.\n2 lines in \d+\.\d\d s \([\d,]+ lines\/s\)\.\n$/,
    );
    expect(stderrLines(result)).toEqual([expect.stringMatching(/^line 2: The line is not valid JSON/)]);
  });

  it.each([
    ['a header', 'id,name,tag\n1,Basil,herb\n'],
    ['records without a header', '1,Basil,herb\n2,Sage,\n'],
  ])('suggests --format csv when CSV (%s) is piped in as NDJSON', async (_, csv) => {
    const result = run(['plants', 'import', '-'], csv);

    expect(result.status).toBe(1);
    expect(stderrLines(result)[0]).toMatch(
      /^line 1: The line is not valid JSON: .* It looks like CSV: add --format csv\.$/,
    );
    expect(stderrLines(result).filter((line) => line.includes('--format csv'))).toHaveLength(1);
    expect(await rows()).toEqual([]);
  });

  it('does not suggest CSV for broken JSON', async () => {
    const result = run(['plants', 'import', '-'], '{"id": 1, "name": "a",}\nnot json, really\n');

    expect(stderrLines(result)).toHaveLength(2);
    expect(result.stderr).not.toContain('--format csv');
  });

  it('reads stdin for -', async () => {
    const result = run(['plants', 'import', '-', '--json'], '{"id":7,"name":"From a pipe"}\n');
    expect(summaryOf(result)).toMatchObject({ imported: 1 });
    expect(await rows()).toEqual([{ id: '7', name: 'From a pipe', tag: null }]);
  });

  it('rejects invalid UTF-8 and over-long lines without stopping', async () => {
    const content = Buffer.concat([
      Buffer.from('{"id":1,"name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\n'),
      Buffer.from(`{"id":2,"name":"${'x'.repeat(70_000)}"}\n`),
      Buffer.from('{"id":3,"name":"ok"}\n'),
    ]);
    file('plants.ndjson', content);
    const result = run(['plants', 'import', 'plants.ndjson', '--json']);
    expect(stderrLines(result)).toEqual([
      'line 1: The line is not valid UTF-8.',
      'line 2: The line is longer than 65536 bytes.',
    ]);
    expect(summaryOf(result)).toMatchObject({ imported: 1, invalid: 2 });
  });

  describe('interrupted imports', () => {
    const total = 60_000;
    const batch = 500;
    const content = Array.from({ length: total }, (_, i) => `{"id":${i + 1},"name":"Plant ${i + 1}"}`).join('\n');

    /** Starts a large import and waits until some batches are durable. */
    async function importUntilSomeRows(signal: NodeJS.Signals) {
      file('big.ndjson', content);
      const started = startPlantstore(['plants', 'import', 'big.ndjson', '--batch-size', String(batch), '--json'], {
        databaseUrl: store.url,
        cwd: dir,
      });
      for (let attempt = 0; attempt < 2000; attempt++) {
        const [{ count }] = await dataSource.query<[{ count: string | number }]>('SELECT COUNT(*) AS count FROM plant');
        if (Number(count) > 0) break;
        await new Promise((wait) => setTimeout(wait, 5));
      }
      started.child.kill(signal);
      return started.exited;
    }

    async function expectWholeBatchesFromTheStart(): Promise<number> {
      const stored = await rows();
      expect(stored.length % batch).toBe(0);
      expect(stored.length).toBeLessThan(total);
      // A prefix of the file: ids 1..n, nothing skipped, nothing from later lines.
      expect(stored.map((row) => Number(row.id)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: stored.length }, (_, i) => i + 1),
      );
      return stored.length;
    }

    it('killed mid-import, leaves whole batches, and a re-run completes it', async () => {
      const killed = await importUntilSomeRows('SIGKILL');
      expect(killed.status).toBeNull();
      const kept = await expectWholeBatchesFromTheStart();

      const resumed = run(['plants', 'import', 'big.ndjson', '--batch-size', String(batch), '--json']);
      expect(resumed.status).toBe(0);
      expect(summaryOf(resumed)).toMatchObject({ imported: total - kept, unchanged: kept, invalid: 0, conflicts: 0 });
      expect((await rows()).length).toBe(total);
    });

    it('stopped by Ctrl-C while stdin stalls, ends at once with exit 130 and interrupted: true', async () => {
      const started = startPlantstore(['plants', 'import', '-', '--batch-size', '1', '--json'], {
        databaseUrl: store.url,
        cwd: dir,
      });
      // Two lines, then nothing: the pipe stays open, as a stalled producer leaves it.
      started.child.stdin.write('{"id":1,"name":"One"}\n{"id":2,"name":"Two"}\n');
      for (let attempt = 0; attempt < 2000 && (await rows()).length < 2; attempt++) {
        await new Promise((wait) => setTimeout(wait, 5));
      }
      started.child.kill('SIGINT');
      const stopped = await started.exited;
      started.child.stdin.destroy();

      expect(stopped.status).toBe(130);
      expect(summaryOf(stopped)).toMatchObject({ imported: 2, interrupted: true });
    });

    it('stopped by Ctrl-C, finishes the batch in flight, says how to complete, and exits 130', async () => {
      const stopped = await importUntilSomeRows('SIGINT');
      expect(stopped.status).toBe(130);
      const summary = summaryOf(stopped);
      expect(summary.interrupted).toBe(true);
      const kept = await expectWholeBatchesFromTheStart();
      expect(summary.imported).toBe(kept);
    });
  });

  describe('usage', () => {
    it.each([
      [['plants', 'import', 'missing.ndjson'], "cannot read 'missing.ndjson': no such file"],
      [
        ['plants', 'import', 'plants.txt'],
        "cannot tell the format of 'plants.txt' from its name; add --format ndjson or --format csv",
      ],
      [['plants', 'import', 'plants.txt', '--format', 'xml'], "unknown format 'xml' (expected one of: ndjson, csv)"],
      [
        ['plants', 'import', 'plants.txt', '--format', 'csv', '--batch-size', '0'],
        `--batch-size must be an integer from 1 to ${MAX_ROWS_PER_STATEMENT}`,
      ],
      [['plants', 'import'], 'missing the file to import (- for stdin)'],
    ])('%j is a usage error (exit 2) that touches no database', (args, message) => {
      file('plants.txt', '');
      const result = plantstore(args, { databaseUrl: `sqlite:${join(dir, 'never.sqlite')}`, cwd: dir });
      expect(result.status).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`plantstore: ${message}`);
      expect(existsSync(join(dir, 'never.sqlite'))).toBe(false);
    });
  });
});
