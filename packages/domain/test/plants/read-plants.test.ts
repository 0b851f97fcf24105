import {
  GetPlant,
  ListPlants,
  Plant,
  PlantId,
  PlantNotFoundError,
  PlantPageQuery,
  PlantQueryError,
  StorageUnavailableError,
  type FieldViolation,
  type PlantPageQueryInput,
} from '@plantstore/domain';
import { InMemoryPlantRepository } from '@plantstore/domain/testing';

const CANONICAL_RULE = (field: string) =>
  `${field} must be an integer between -9223372036854775808 and 9223372036854775807 in canonical decimal form (0, or an optional minus sign and digits without a leading zero; no plus sign, exponent or spaces)`;
const LIMIT_RULE = 'limit must be a whole number from 1 to 1000 in canonical decimal form (no sign, no leading zero)';

function plant(id: bigint, name: string, tag?: string): Plant {
  const parsed = Plant.parse(tag === undefined ? { id, name } : { id, name, tag });
  if (!parsed.ok) throw new Error('test plant is invalid');
  return parsed.plant;
}

async function storeWith(...plants: Plant[]): Promise<InMemoryPlantRepository> {
  const store = new InMemoryPlantRepository();
  for (const p of plants) await store.insertIfAbsent(p, { createdByTokenId: undefined, createdAt: new Date(0) });
  return store;
}

function query(input: PlantPageQueryInput): PlantPageQuery {
  const parsed = PlantPageQuery.parse(input);
  if (!parsed.ok) throw new Error(`expected a valid query, got ${JSON.stringify(parsed.violations)}`);
  return parsed.query;
}

function violationsOf(input: PlantPageQueryInput): readonly FieldViolation[] {
  const parsed = PlantPageQuery.parse(input);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return parsed.violations;
}

describe('PlantId.fromCanonical: one spelling per id', () => {
  it.each([
    ['0', 0n],
    ['7', 7n],
    ['-7', -7n],
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', PlantId.MAX],
    ['-9223372036854775808', PlantId.MIN],
  ])('accepts %s as %s', (text, value) => {
    const id = PlantId.fromCanonical(text);
    expect(id instanceof PlantId && id.value).toBe(value);
  });

  it.each([
    '007',
    '00',
    '-0',
    '+5',
    '1e2',
    '1.0',
    ' 5',
    '5 ',
    '',
    '-',
    'abc',
    '0x10',
    '٣',
    '9223372036854775808',
    '-9223372036854775809',
    '99999999999999999999',
  ])('refuses %j, naming the parameter and the rule', (text) => {
    expect(PlantId.fromCanonical(text, 'after')).toEqual({ field: 'after', message: CANONICAL_RULE('after') });
  });
});

describe('PlantPageQuery.parse: the rules of a list request', () => {
  it('defaults to every tag, 100 plants, from the lowest id', () => {
    expect(query({}).toJSON()).toEqual({ tags: [], limit: 100 });
  });

  it('keeps the tags, the limit and the cursor it was given', () => {
    const q = query({ tags: ['herb', 'tree'], limit: '1000', after: '-9223372036854775808' });
    expect(q.toJSON()).toEqual({ tags: ['herb', 'tree'], limit: 1000, after: '-9223372036854775808' });
    expect(q.after?.value).toBe(PlantId.MIN);
  });

  it.each(['0', '1001', '-1', '+1', '01', '1.0', '1e2', '', 'ten', '99999999999999999999'])(
    'refuses the limit %j',
    (limit) => {
      expect(violationsOf({ limit })).toEqual([{ field: 'limit', message: LIMIT_RULE }]);
    },
  );

  it('refuses a tag the plant rules would refuse, naming the tags parameter', () => {
    expect(violationsOf({ tags: ['ok', '', 'x'.repeat(65)] })).toEqual([
      { field: 'tags', message: 'tags must be 1 to 64 characters long (got 0)' },
      { field: 'tags', message: 'tags must be 1 to 64 characters long (got 65)' },
    ]);
  });

  it('keeps the text to find in names, as sent and as its key', () => {
    const q = query({ name: 'Fougère', tags: ['fern'] });
    expect(q.toJSON()).toEqual({ tags: ['fern'], name: 'Fougère', limit: 100 });
    expect(q.name?.key).toBe('fougere');
  });

  it('refuses a name text the name rules would refuse, naming the name parameter', () => {
    expect(violationsOf({ name: '' })).toEqual([
      { field: 'name', message: 'name must be 1 to 200 characters long (got 0)' },
    ]);
    expect(violationsOf({ name: 'x'.repeat(201) }).map((v) => v.field)).toEqual(['name']);
  });

  it('reports every broken parameter at once, in the order tags, name, limit, after', () => {
    expect(violationsOf({ tags: [' '], name: '\u0007', limit: '0', after: '007' }).map((v) => v.field)).toEqual([
      'tags',
      'name',
      'limit',
      'after',
    ]);
  });
});

describe('GetPlant', () => {
  it('answers the stored plant for its id', async () => {
    const get = new GetPlant(await storeWith(plant(9007199254740993n, 'odd', 'big')));
    const result = await get.execute(PlantId.fromStored('9007199254740993'));
    expect(result.outcome === 'found' && result.plant.toJSON()).toEqual({
      id: '9007199254740993',
      name: 'odd',
      tag: 'big',
    });
    // Its version as stored: 1 at create.
    expect(result.outcome === 'found' && result.version).toBe(1);
  });

  it('answers not-found naming the id when none is stored, even beside its float neighbour', async () => {
    const get = new GetPlant(await storeWith(plant(9007199254740992n, 'even')));
    const result = await get.execute(PlantId.fromStored('9007199254740993'));
    expect(result.outcome).toBe('not-found');
    expect(result.outcome === 'not-found' && result.id.toString()).toBe('9007199254740993');
    // The error an adapter raises for that outcome says the same.
    expect(new PlantNotFoundError(PlantId.fromStored('9007199254740993'))).toMatchObject({
      code: 'PLANT_NOT_FOUND',
      message: 'There is no plant with id 9007199254740993.',
    });
  });

  it('lets StorageUnavailableError through', async () => {
    const store = await storeWith();
    store.goOffline();
    await expect(new GetPlant(store).execute(PlantId.fromStored(1n))).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});

describe('ListPlants', () => {
  it('gives a next query exactly when the page is full, even if the following page is empty', async () => {
    const list = new ListPlants(await storeWith(plant(3n, 'c'), plant(-1n, 'a'), plant(2n, 'b', 'herb')));
    const first = await list.execute(query({ limit: '2' }));
    expect(first.plants.map((p) => p.toJSON())).toEqual([
      { id: '-1', name: 'a' },
      { id: '2', name: 'b', tag: 'herb' },
    ]);
    expect(first.next?.toJSON()).toEqual({ tags: [], limit: 2, after: '2' });
    const second = await list.execute(first.next!);
    expect(second.plants.map((p) => p.id.toString())).toEqual(['3']);
    expect(second.next).toBeUndefined();
    const full = await list.execute(query({ limit: '3' }));
    expect(full.next?.toJSON()).toEqual({ tags: [], limit: 3, after: '3' });
    expect((await list.execute(full.next!)).plants).toEqual([]);
  });

  it('carries the tags into the next query', async () => {
    const list = new ListPlants(await storeWith(plant(1n, 'a', 'herb'), plant(2n, 'b'), plant(3n, 'c', 'herb')));
    const page = await list.execute(query({ tags: ['herb'], limit: '1' }));
    expect(page.next?.toJSON()).toEqual({ tags: ['herb'], limit: 1, after: '1' });
    expect((await list.execute(page.next!)).plants.map((p) => p.id.toString())).toEqual(['3']);
  });

  it('carries the name into the next query, and finds by it', async () => {
    const list = new ListPlants(
      await storeWith(plant(1n, 'Fougère'), plant(2n, 'Aloe'), plant(3n, 'FOUGERE mâle'), plant(4n, 'fougère')),
    );
    const page = await list.execute(query({ name: 'fougere', limit: '2' }));
    expect(page.plants.map((p) => p.id.toString())).toEqual(['1', '3']);
    expect(page.next?.toJSON()).toEqual({ tags: [], name: 'fougere', limit: 2, after: '3' });
    expect((await list.execute(page.next!)).plants.map((p) => p.id.toString())).toEqual(['4']);
  });

  it('is refused with PlantQueryError by the adapter, whose message lists each violation', () => {
    const error = new PlantQueryError(violationsOf({ limit: '0', after: '+1' }));
    expect(error.code).toBe('PLANT_QUERY_INVALID');
    expect(error.message).toBe(`The request parameters are invalid: ${LIMIT_RULE}; ${CANONICAL_RULE('after')}.`);
  });
});
