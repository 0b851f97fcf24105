import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from '@plantstore/adapters-persistence';
import { testEngines, type TestStore } from '../../../packages/adapters-persistence/test/engines.js';
import { lastLine, plantstore } from './support/cli-process.js';
import { retire } from './support/retire.js';

// Content that trips up exports: int64 extremes and 2^53 + 1, CSV's and JSON's special characters, astral text.
const PLANTS = [
  { id: '9223372036854775807', name: 'Max', tag: 'edge' },
  { id: '-9223372036854775808', name: 'Min' },
  { id: '9007199254740993', name: 'One past 2^53', tag: 'exact' },
  { id: '0', name: 'Ficus, "weeping"', tag: 'a,b' },
  { id: '-1', name: ' spaced ', tag: 'back\\slash' },
  { id: '42', name: '🌵 Cactus 𝄞', tag: '\u3000ideographic' },
];

function ndjson(plants: readonly { id: string; name: string; tag?: string }[]): string {
  return plants
    .map(
      (p) =>
        `{"id":${p.id},"name":${JSON.stringify(p.name)}${p.tag === undefined ? '' : `,"tag":${JSON.stringify(p.tag)}`}}\n`,
    )
    .join('');
}

describe.each(testEngines())('plantstore plants export on $name', (engine) => {
  const stores: TestStore[] = [];
  const dataSources: DataSource[] = [];
  let dir: string;

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const store = await engine.createStore();
      stores.push(store);
      dataSources.push(await store.open());
    }
  });
  afterAll(async () => {
    for (const dataSource of dataSources) await dataSource.destroy();
    for (const store of stores) await store.remove();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plantstore-export-'));
    for (const dataSource of dataSources) await dataSource.query('DELETE FROM plant');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cli = (store: number, args: string[]) => plantstore(args, { databaseUrl: stores[store]!.url, cwd: dir });
  const seed = () => {
    writeFileSync(join(dir, 'seed.ndjson'), ndjson(PLANTS));
    expect(cli(0, ['plants', 'import', 'seed.ndjson']).status).toBe(0);
  };
  const ascending = [...PLANTS].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));

  it('writes NDJSON to stdout, ascending by id, with every digit of every id', () => {
    seed();
    const run = cli(0, ['plants', 'export']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(ndjson(ascending));
    expect(run.stderr).toBe('Exported 6 plants.\n');
  });

  it('writes CSV, quoting what needs it, an empty cell for no tag', () => {
    seed();
    expect(cli(0, ['plants', 'export', '-o', 'plants.csv']).stderr).toBe('Exported 6 plants to plants.csv.\n');
    expect(readFileSync(join(dir, 'plants.csv'), 'utf8')).toBe(
      [
        'id,name,tag',
        '-9223372036854775808,Min,',
        '-1, spaced ,back\\slash',
        '0,"Ficus, ""weeping""","a,b"',
        '42,🌵 Cactus 𝄞,\u3000ideographic',
        '9007199254740993,One past 2^53,exact',
        '9223372036854775807,Max,edge',
        '',
      ].join('\n'),
    );
  });

  it.each(['ndjson', 'csv'])('export → import into an empty store reproduces it (%s)', (format) => {
    seed();
    expect(cli(0, ['plants', 'export', '--format', format, '-o', `out.${format}`]).status).toBe(0);
    const imported = cli(1, ['plants', 'import', `out.${format}`, '--json']);
    expect(JSON.parse(lastLine(imported.stdout))).toMatchObject({ imported: PLANTS.length, invalid: 0, conflicts: 0 });
    expect(cli(1, ['plants', 'export']).stdout).toBe(cli(0, ['plants', 'export']).stdout);
  });

  it('never writes a deleted plant, and an import of the file it wrote leaves the store as it was', async () => {
    seed();
    const deleted = PLANTS[0]!;
    await retire(dataSources[0]!, deleted.id);
    const run = cli(0, ['plants', 'export']);
    expect(run.stdout).toBe(ndjson(ascending.filter((plant) => plant.id !== deleted.id)));
    expect(run.stderr).toBe(`Exported ${PLANTS.length - 1} plants.\n`);
    writeFileSync(join(dir, 'again.ndjson'), run.stdout);
    expect(JSON.parse(lastLine(cli(0, ['plants', 'import', 'again.ndjson', '--json']).stdout))).toMatchObject({
      imported: 0,
      unchanged: PLANTS.length - 1,
    });
  });

  it('pages through more plants than one page, in order', () => {
    const many = Array.from({ length: 2503 }, (_, i) => ({ id: String(i * 3 - 4000), name: `p${i}` }));
    writeFileSync(join(dir, 'many.ndjson'), ndjson([...many].reverse()));
    expect(cli(0, ['plants', 'import', 'many.ndjson']).status).toBe(0);
    expect(cli(0, ['plants', 'export']).stdout).toBe(ndjson(many));
  });

  it('exports an empty store as an empty file (a header only for CSV)', () => {
    expect(cli(0, ['plants', 'export']).stdout).toBe('');
    expect(cli(0, ['plants', 'export', '--format', 'csv']).stdout).toBe('id,name,tag\n');
  });

  it('fails cleanly when the output file cannot be written, leaving no partial file', () => {
    seed();
    const run = cli(0, ['plants', 'export', '-o', join('no-such-dir', 'out.ndjson')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^plantstore: failed: ENOENT: no such file or directory/);
    expect(readdirSync(dir)).toEqual(['seed.ndjson']);
  });

  it('names the file asked for when it cannot be written, never its temporary file', () => {
    const run = cli(0, ['plants', 'export', '-o', join('no-such-dir', 'out.ndjson')]);

    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `plantstore: failed: ENOENT: no such file or directory, open '${join('no-such-dir', 'out.ndjson')}'\n`,
    );
  });

  it('refuses an unknown format before touching a database', () => {
    const run = plantstore(['plants', 'export', '--format', 'xml'], {
      databaseUrl: `sqlite:${join(dir, 'never.sqlite')}`,
      cwd: dir,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("plantstore: unknown format 'xml' (expected one of: ndjson, csv)");
    expect(existsSync(join(dir, 'never.sqlite'))).toBe(false);
  });
});
