import { PlantId, plantNameKey } from '@plantstore/domain';
import { plantSqlFor, type NewPlantRow } from '../../src/plants/plant-sql.js';
import { SqlRunner, type Statement } from '../../src/connection/sql-runner.js';
import { testEngines } from '../engines.js';
import { clearStore } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';

const EXTREMES = ['-9223372036854775808', '9007199254740993', '9223372036854775807'];

function row(id: string, name = `n${id}`): NewPlantRow {
  return { id: PlantId.fromStored(id), name, tag: null, createdByTokenId: null, createdAt: '2025-06-01T12:00:00.000Z' };
}

describe('plant SQL parameters', () => {
  it.each<['sqlite' | 'postgres', (id: string) => unknown]>([
    ['sqlite', (id) => BigInt(id)],
    ['postgres', (id) => id],
  ])('bind ids on %s exactly, never as a JavaScript number', (engine, bound) => {
    const sql = plantSqlFor(engine);
    const ids = EXTREMES.map((id) => PlantId.fromStored(id));
    expect(sql.selectByIds(ids).parameters).toEqual(EXTREMES.map(bound));
    expect(sql.selectPage(ids[1], 10).parameters).toEqual([bound(EXTREMES[1]!), 10]);
    // Tags are bound too: a tag holding SQL never reaches the statement text.
    const tagged = sql.selectPage(ids[0], 5, [`'); --`, 'herb']);
    expect(tagged.parameters).toEqual([bound(EXTREMES[0]!), `'); --`, 'herb', 5]);
    expect(tagged.sql).not.toContain('herb');
    expect(sql.insertIfAbsent([row(EXTREMES[2]!)]).parameters[0]).toEqual(bound(EXTREMES[2]!));
  });
});

describe('plant SQL inserts', () => {
  it('number every value of every row in order, whatever row counts came before', () => {
    const sql = plantSqlFor('postgres', 256);
    for (const count of [2, 1, 3, 2, 300, 2]) {
      const rows = Array.from({ length: count }, (_, i) => row(String(i + 1)));
      const insert = sql.insertIfAbsent(rows);
      const placeholders = [...insert.sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
      expect(placeholders).toEqual(Array.from({ length: count * 6 }, (_, i) => i + 1));
      expect(insert.parameters).toEqual(
        rows.flatMap((r) => [r.id.toString(), r.name, plantNameKey(r.name), r.tag, r.createdByTokenId, r.createdAt]),
      );
    }
  });
});

describe.each(testEngines())('plant SQL on $name', (engine) => {
  const open = useFreshStore(engine);
  const sql = plantSqlFor(engine.name);
  // Through the runner the repository uses: PostgreSQL's UPDATE answers come back as rows too.
  const run = <Row = unknown>(statement: Statement): Promise<Row[]> =>
    new SqlRunner(open().dataSource).run<Row>(statement);

  beforeEach(() => clearStore(open().dataSource));

  it('inserts only the free ids and answers those, as exact decimal text', async () => {
    await run(sql.insertIfAbsent([row(EXTREMES[1]!, 'first')]));
    const returned: Array<{ id: string }> = await run(sql.insertIfAbsent(EXTREMES.map((id) => row(id, 'second'))));
    expect(returned.map((r) => r.id).sort()).toEqual([EXTREMES[0], EXTREMES[2]]);
    const stored: Array<{ id: string; name: string; tag: string | null }> = await run(
      sql.selectByIds(EXTREMES.map((id) => PlantId.fromStored(id))),
    );
    expect(stored.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))).toEqual([
      { id: EXTREMES[1], name: 'first', tag: null, version: 1, deleted_at: null },
      { id: EXTREMES[0], name: 'second', tag: null, version: 1, deleted_at: null },
      { id: EXTREMES[2], name: 'second', tag: null, version: 1, deleted_at: null },
    ]);
  });

  it('changes only the plants live at the version each change expects, answering those as exact decimal text', async () => {
    await run(sql.insertIfAbsent(EXTREMES.map((id) => row(id, 'first'))));
    const change = (id: string, expectedVersion: number, name: string | null, deletedAt: string | null = null) => ({
      id: PlantId.fromStored(id),
      expectedVersion,
      name,
      tag: null,
      changedAt: '2026-11-25T12:00:00.000Z',
      deletedAt,
      deletedByTokenId: null,
    });
    const [first, second, third] = EXTREMES as [string, string, string];
    const written: Array<{ id: string }> = await run(
      sql.changeIfCurrent([
        change(first, 1, 'renamed'),
        change(second, 2, 'stale'),
        change(third, 1, null, '2026-11-25T12:00:00.000Z'),
      ]),
    );
    expect(written.map((r) => r.id).sort()).toEqual([first, third].sort());
    const stored: Array<{ id: string; name: string | null; version: number; deleted_at: unknown }> = await run(
      sql.selectByIds(EXTREMES.map((id) => PlantId.fromStored(id))),
    );
    expect(
      stored
        .map(({ id, name, version, deleted_at }) => ({ id, name, version, deleted: deleted_at !== null }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual(
      [
        { id: first, name: 'renamed', version: 2, deleted: false },
        { id: second, name: 'first', version: 1, deleted: false },
        { id: third, name: null, version: 2, deleted: true },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    // A tombstone is changed by nothing, and listed nowhere.
    expect(await run(sql.changeIfCurrent([change(third, 2, 'back')]))).toEqual([]);
    const page: Array<{ id: string }> = await run(sql.selectPage(undefined, 10));
    expect(page.map((r) => r.id).sort()).toEqual([first, second].sort());
  });

  it('pages in integer order of the ids, not in the order of their text', async () => {
    const ids = ['-9223372036854775808', '-10', '-9', '2', '10', '9223372036854775807'];
    await run(sql.insertIfAbsent(ids.map((id) => row(id))));
    const first: Array<{ id: string }> = await run(sql.selectPage(undefined, 3));
    const next: Array<{ id: string }> = await run(sql.selectPage(PlantId.fromStored('-9'), 3));
    expect([first.map((r) => r.id), next.map((r) => r.id)]).toEqual([ids.slice(0, 3), ids.slice(3)]);
  });
});
