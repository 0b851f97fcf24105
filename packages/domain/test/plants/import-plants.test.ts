import {
  ImportPlants,
  NewPlantShape,
  type ImportLine,
  type ImportRejection,
  type ImportTotals,
  type NewPlantRecord,
} from '@plantstore/domain';
import { FixedClock, InMemoryPlantRepository } from '@plantstore/domain/testing';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';

type Line = ImportLine<string>;

/** Fields as a CSV row holds them: every cell is text, and a number is the text of its cell. */
function record(fields: Record<string, unknown>): NewPlantRecord {
  return { fields, numberLiteral: (value) => (typeof value === 'string' ? value : undefined) };
}

function plantLine(line: number, id: string, name = `Plant ${id}`, tag?: string): Line {
  return { line, source: `line ${line}`, plant: record(tag === undefined ? { id, name } : { id, name, tag }) };
}

/** The lines in groups of two, as an adapter hands over what one chunk of a file held. */
async function* from(lines: readonly Line[]): AsyncGenerator<Line[]> {
  for (let i = 0; i < lines.length; i += 2) yield lines.slice(i, i + 2);
}

function recorder() {
  const rejections: ImportRejection<string>[] = [];
  const totals: ImportTotals[] = [];
  return {
    rejections,
    totals,
    listener: {
      rejected(rejection: ImportRejection<string>) {
        rejections.push(rejection);
      },
      batchCommitted(running: ImportTotals) {
        totals.push(running);
      },
    },
  };
}

function setUp(batchSize = 3) {
  const plants = new InMemoryPlantRepository();
  return { plants, importPlants: new ImportPlants(plants, new FixedClock(), batchSize) };
}

describe('ImportPlants', () => {
  it('refuses a line whose id belonged to a deleted plant, with its line and reason, and imports the rest', async () => {
    const { plants, importPlants } = setUp();
    await plants.insertIfAbsent(validPlant(PlantInputMother.valid({ id: '1' })), {
      createdByTokenId: undefined,
      createdAt: new Date(),
    });
    await plants.retire(validPlant(PlantInputMother.valid({ id: '1' })).id, 1, {
      retiredAt: new Date(),
      retiredByTokenId: undefined,
    });
    const { rejections, listener } = recorder();
    const result = await importPlants.execute(from([plantLine(1, '1'), plantLine(2, '2')]), listener);
    expect(result).toMatchObject({ imported: 1, retired: 1, conflicts: 0, lines: 2 });
    expect(rejections.map(({ entry, reason, message }) => [entry.line, reason, message])).toEqual([
      [1, 'retired', 'The id 1 belonged to a plant that was deleted, and ids are never used again; choose another id.'],
    ]);
    expect(plants.stored('1')?.plant).toBeUndefined();
  });

  it('imports valid lines, counts replays, and reports conflicts and invalid lines by line number', async () => {
    const { plants, importPlants } = setUp();
    await plants.insertIfAbsent(validPlant(PlantInputMother.valid({ id: '10', name: 'Fern' })), {
      createdByTokenId: 't',
      createdAt: new Date(),
    });
    const seen = recorder();

    const result = await importPlants.execute(
      from([
        plantLine(1, '1'),
        plantLine(2, '10', 'Fern'),
        { line: 3, source: 'line 3', plant: record({ ...PlantInputMother.invalidEverywhere() }) },
        plantLine(5, '10', 'Not a fern'),
        { line: 6, source: 'line 6', unreadable: 'The line is not valid JSON.' },
        plantLine(7, '2', 'Ivy', 'Araliaceae'),
      ]),
      seen.listener,
    );

    expect(result).toEqual({
      imported: 2,
      replayed: 1,
      conflicts: 1,
      retired: 0,
      invalid: 2,
      lines: 6,
      interrupted: false,
    });
    // Invalid lines are reported as read, conflicts once their batch is written (here full at line 5).
    expect(seen.rejections.map((r) => [r.entry.line, r.reason, r.message])).toEqual([
      [
        3,
        'invalid',
        'The plant is invalid: id must be an integer between -9223372036854775808 and 9223372036854775807; ' +
          'name must be 1 to 200 characters long (got 0); tag must not contain control characters (U+0000-U+001F, U+007F-U+009F).',
      ],
      [5, 'conflict', 'A plant with id 10 already exists with a different name or tag; choose another id.'],
      [6, 'invalid', 'The line is not valid JSON.'],
    ]);
    expect(plants.stored('10')?.plant?.name.value).toBe('Fern');
    expect(plants.stored('2')?.plant?.tag?.value).toBe('Araliaceae');
    expect(plants.size).toBe(3);
  });

  it('reports shape violations of a record with the API messages, in field order', async () => {
    const { importPlants } = setUp();
    const seen = recorder();
    await importPlants.execute(from([{ line: 1, source: '', plant: record({ id: true, tag: 'x' }) }]), seen.listener);
    expect(seen.rejections[0]?.message).toBe(
      `The plant is invalid: ${NewPlantShape.idNotNumber.message}; ${NewPlantShape.nameRequired.message}.`,
    );
  });

  it('holds invalid lines back from no batch: a batch is full of valid plants', async () => {
    const { plants, importPlants } = setUp(2);
    const invalid = (line: number): Line => ({ line, source: '', unreadable: 'bad' });
    await importPlants.execute(
      from([plantLine(1, '1'), invalid(2), invalid(3), plantLine(4, '4'), plantLine(5, '5')]),
      recorder().listener,
    );
    expect(plants.batches).toEqual([2, 1]);
  });

  it('writes one batch per batch size and tells the listener after each, with running totals', async () => {
    const { plants, importPlants } = setUp(2);
    const seen = recorder();
    await importPlants.execute(from([1, 2, 3, 4, 5].map((n) => plantLine(n, String(n)))), seen.listener);
    expect(plants.batches).toEqual([2, 2, 1]);
    expect(seen.totals.map((t) => [t.lines, t.imported])).toEqual([
      [2, 2],
      [4, 4],
      [5, 5],
    ]);
  });

  it('treats a repeated id inside one batch like a retried create: same content replayed, other content a conflict', async () => {
    const { plants, importPlants } = setUp(10);
    const seen = recorder();
    const result = await importPlants.execute(
      from([plantLine(1, '7', 'Sage'), plantLine(2, '7', 'Sage'), plantLine(3, '7', 'Thyme')]),
      seen.listener,
    );
    expect(result).toMatchObject({ imported: 1, replayed: 1, conflicts: 1, invalid: 0 });
    expect(plants.batches).toEqual([1]);
    expect(seen.rejections.map((r) => r.entry.line)).toEqual([3]);
  });

  it('changes nothing when run again, and says so', async () => {
    const { plants, importPlants } = setUp();
    const lines = [1, 2, 3, 4].map((n) => plantLine(n, String(n)));
    await importPlants.execute(from(lines), recorder().listener);
    const again = await importPlants.execute(from(lines), recorder().listener);
    expect(again).toMatchObject({ imported: 0, replayed: 4, conflicts: 0, invalid: 0 });
    expect(plants.size).toBe(4);
  });

  it('stops between batches when the signal aborts, leaving whole batches; a re-run completes the import', async () => {
    const { plants, importPlants } = setUp(2);
    const controller = new AbortController();
    const lines = [1, 2, 3, 4, 5].map((n) => plantLine(n, String(n)));
    const interrupted = await importPlants.execute(
      from(lines),
      { rejected: () => {}, batchCommitted: () => controller.abort() },
      controller.signal,
    );
    expect(interrupted).toMatchObject({ imported: 2, lines: 2, interrupted: true });
    expect(plants.size).toBe(2);

    const resumed = await importPlants.execute(from(lines), recorder().listener);
    expect(resumed).toMatchObject({ imported: 3, replayed: 2, interrupted: false });
  });

  it('fails as the store fails, after the batches already durable', async () => {
    const { plants, importPlants } = setUp(2);
    const lines = [1, 2, 3, 4].map((n) => plantLine(n, String(n)));
    await expect(
      importPlants.execute(from(lines), { rejected: () => {}, batchCommitted: () => plants.goOffline() }),
    ).rejects.toThrow('temporarily unavailable');
    expect(plants.size).toBe(2);
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => new ImportPlants(new InMemoryPlantRepository(), new FixedClock(), 0)).toThrow(RangeError);
  });
});
