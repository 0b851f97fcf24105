import { SqlPlantRepository, TypeOrmTokenRepository } from '@plantstore/adapters-persistence';
import { CreatePlant, type CreatePlantResult, type NewPlantInput } from '@plantstore/domain';
import {
  FixedClock,
  plantBatchRepositoryContract,
  plantChangeRepositoryContract,
  plantReaderContract,
  plantRepositoryContract,
} from '@plantstore/domain/testing';
import { testEngines } from '../engines.js';
import { clearStore, plantRows, provenanceRows } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';
import { validPlant } from '../support/valid-inputs.js';

const NOW = '2025-06-01T12:34:56.789Z';

// The domain's port contracts, on each engine: the same checks the in-memory fakes pass.
describe.each(testEngines())('SqlPlantRepository holds to the plant port contracts on $name', (engine) => {
  const open = useFreshStore(engine);
  const empty = async () => {
    await clearStore(open().dataSource);
    return new SqlPlantRepository(open().dataSource);
  };
  describe('PlantRepository', () => {
    for (const check of plantRepositoryContract({ empty })) it(check.name, check.run);
  });
  describe('PlantBatchRepository', () => {
    // The plant → api_token foreign key refuses a creator that does not exist.
    const refusedProvenance = { createdByTokenId: 'no-such-token', createdAt: new Date(NOW) };
    for (const check of plantBatchRepositoryContract({ empty, refusedProvenance })) it(check.name, check.run);
  });
  describe('PlantReader', () => {
    for (const check of plantReaderContract({ empty })) it(check.name, check.run);
  });
  describe('PlantChangeRepository', () => {
    for (const check of plantChangeRepositoryContract({ empty })) it(check.name, check.run);
  });
});

describe.each(testEngines())('SqlPlantRepository on $name', (engine) => {
  const open = useFreshStore(engine);
  let createPlant: {
    execute(command: { plant: NewPlantInput; createdByTokenId?: string }): Promise<CreatePlantResult>;
  };

  beforeEach(async () => {
    await clearStore(open().dataSource);
    const useCase = new CreatePlant(new SqlPlantRepository(open().dataSource), new FixedClock(NOW));
    // Inputs parsed first, as the HTTP adapter and the CLI do.
    createPlant = {
      execute: async ({ plant, createdByTokenId }) => useCase.execute({ plant: parsed(plant), createdByTokenId }),
    };
  });

  describe('64-bit ids', () => {
    it.each(['9223372036854775807', '-9223372036854775808', '9007199254740993', '0', '-1'])(
      'stores %s exactly and reads it back exactly',
      async (id) => {
        await createPlant.execute({ plant: { id, name: 'Aloe' } });
        expect(await plantRows(open().dataSource)).toEqual([{ id, name: 'Aloe', tag: null }]);
        // A replay answers with the plant read back from the database.
        const replay = await createPlant.execute({ plant: { id, name: 'Aloe' } });
        expect(replay.outcome).toBe('replayed');
        expect(replay.plant.id.toString()).toBe(id);
      },
    );

    it('keeps 9007199254740992 and 9007199254740993 as two rows', async () => {
      const even = await createPlant.execute({ plant: { id: '9007199254740992', name: 'even' } });
      const odd = await createPlant.execute({ plant: { id: '9007199254740993', name: 'odd' } });
      expect([even.outcome, odd.outcome]).toEqual(['created', 'created']);
      expect(await plantRows(open().dataSource)).toEqual([
        { id: '9007199254740992', name: 'even', tag: null },
        { id: '9007199254740993', name: 'odd', tag: null },
      ]);
    });

    it('finds the stored plant at the top of the range for a conflict', async () => {
      await createPlant.execute({ plant: { id: '9223372036854775807', name: 'max' } });
      const result = await createPlant.execute({ plant: { id: '9.223372036854775807e18', name: 'other' } });
      expect(result.outcome).toBe('conflict');
      expect(result.plant.toJSON()).toEqual({ id: '9223372036854775807', name: 'max' });
    });
  });

  describe('text is stored exactly as sent', () => {
    it.each([
      ['200 astral characters', '🌵'.repeat(200), '𝄞'.repeat(64)],
      ['surrounding and ideographic spaces', '  Ficus\u3000', ' Moraceae '],
      ['a decomposed accent', 'Cafe\u0301', 'cafe\u0301'],
      ['U+FEFF alone', '\uFEFF', '\uFEFF'],
      ['quotes and a semicolon', `O'Brien"; DROP TABLE plant; --`, `'); --`],
    ])('%s', async (_label, name, tag) => {
      await createPlant.execute({ plant: { id: '7', name, tag } });
      expect(await plantRows(open().dataSource)).toEqual([{ id: '7', name, tag }]);
      await expect(createPlant.execute({ plant: { id: '7', name, tag } })).resolves.toMatchObject({
        outcome: 'replayed',
      });
    });
  });

  describe('replay and conflict', () => {
    it.each<[string, NewPlantInput]>([
      ['with a tag', { id: '1', name: 'Monstera', tag: 'Araceae' }],
      ['without a tag', { id: '1', name: 'Monstera' }],
    ])('an identical create %s is replayed and writes nothing', async (_label, input) => {
      await createPlant.execute({ plant: input });
      const replay = await createPlant.execute({ plant: { ...input } });
      expect(replay.outcome).toBe('replayed');
      expect(replay.plant.tag?.value).toBe(input.tag);
      expect(await plantRows(open().dataSource)).toEqual([{ id: '1', name: 'Monstera', tag: input.tag ?? null }]);
    });

    it.each<[string, NewPlantInput, NewPlantInput]>([
      ['another name', { id: '1', name: 'Monstera', tag: 'Araceae' }, { id: '1', name: 'Ficus', tag: 'Araceae' }],
      ['another tag', { id: '1', name: 'Monstera', tag: 'Araceae' }, { id: '1', name: 'Monstera', tag: 'Moraceae' }],
      ['a tag where none is stored', { id: '1', name: 'Monstera' }, { id: '1', name: 'Monstera', tag: 'Araceae' }],
      ['no tag where one is stored', { id: '1', name: 'Monstera', tag: 'Araceae' }, { id: '1', name: 'Monstera' }],
    ])('%s is a conflict and the row is unchanged', async (_label, stored, attempt) => {
      await createPlant.execute({ plant: stored });
      await expect(createPlant.execute({ plant: attempt })).resolves.toMatchObject({ outcome: 'conflict' });
      expect(await plantRows(open().dataSource)).toEqual([{ id: '1', name: stored.name, tag: stored.tag ?? null }]);
    });
  });

  it('stores who created the plant and when, beside it', async () => {
    const tokens = new TypeOrmTokenRepository(open().dataSource);
    await tokens.add({
      id: 'tok-1',
      name: 'ci',
      hash: 'a'.repeat(64),
      scopes: ['plants:write'],
      createdAt: new Date('2025-01-01T00:00:00.000Z'),
      expiresAt: undefined,
      revokedAt: undefined,
    });
    await createPlant.execute({ plant: { id: '1', name: 'by token' }, createdByTokenId: 'tok-1' });
    await createPlant.execute({ plant: { id: '2', name: 'by admin' } });
    expect(await provenanceRows(open().dataSource)).toEqual(
      expect.arrayContaining([
        { id: '1', createdByTokenId: 'tok-1', createdAt: NOW },
        { id: '2', createdByTokenId: null, createdAt: NOW },
      ]),
    );
  });
});

const parsed = validPlant;
