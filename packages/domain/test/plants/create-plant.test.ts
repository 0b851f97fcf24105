import {
  CreatePlant,
  Plant,
  PlantValidationError,
  StorageUnavailableError,
  type NewPlantInput,
} from '@plantstore/domain';
import { FixedClock, InMemoryPlantRepository } from '@plantstore/domain/testing';
import { PlantInputMother, validPlant } from '../mothers/plant-input-mother.js';

function setUp() {
  const plants = new InMemoryPlantRepository();
  const clock = new FixedClock('2025-06-01T12:00:00.000Z');
  return { plants, clock, createPlant: new CreatePlant(plants, clock) };
}

describe('CreatePlant', () => {
  it('stores a new plant and reports it created', async () => {
    const { plants, createPlant } = setUp();
    const result = await createPlant.execute({
      plant: validPlant(PlantInputMother.withTag('Araceae', { id: '9007199254740993' })),
    });
    expect(result.outcome).toBe('created');
    expect(result.plant.name.value).toBe('Monstera deliciosa');
    expect(result.plant.tag?.value).toBe('Araceae');
    expect(plants.stored('9007199254740993')?.plant).toBe(result.plant);
  });

  it('passes the provenance to the store: the token that created it and the time from the clock', async () => {
    const { plants, clock, createPlant } = setUp();
    clock.advance(1234);
    await createPlant.execute({ plant: validPlant(), createdByTokenId: 'tok-7' });
    expect(plants.calls.map((c) => c.provenance)).toEqual([
      { createdByTokenId: 'tok-7', createdAt: new Date('2025-06-01T12:00:01.234Z') },
    ]);
  });

  it('records no token when the caller has none (for example an admin tool)', async () => {
    const { plants, createPlant } = setUp();
    await createPlant.execute({ plant: validPlant() });
    expect(plants.stored('1')?.provenance.createdByTokenId).toBeUndefined();
  });

  it('accepts an already parsed Plant', async () => {
    const { plants, createPlant } = setUp();
    const plant = validPlant(PlantInputMother.valid({ id: '-5' }));
    await expect(createPlant.execute({ plant })).resolves.toEqual({ plant, outcome: 'created' });
    expect(plants.size).toBe(1);
  });

  describe('a retried create (same id, same content)', () => {
    it.each<[string, NewPlantInput, NewPlantInput]>([
      ['with a tag', PlantInputMother.withTag('Araceae'), PlantInputMother.withTag('Araceae')],
      ['without a tag', PlantInputMother.valid(), PlantInputMother.valid()],
      [
        'with the tag undefined against none stored',
        PlantInputMother.valid(),
        { ...PlantInputMother.valid(), tag: undefined },
      ],
      ['with the id written 1e0', PlantInputMother.valid(), PlantInputMother.valid({ id: '1e0' })],
    ])('%s returns the stored plant and writes nothing', async (_label, original, retry) => {
      const { plants, clock, createPlant } = setUp();
      const first = await createPlant.execute({ plant: validPlant(original), createdByTokenId: 'tok-1' });
      clock.advance(60_000);
      const second = await createPlant.execute({ plant: validPlant(retry), createdByTokenId: 'tok-2' });
      expect(second.outcome).toBe('replayed');
      expect(second.plant).toBe(first.plant);
      expect(plants.size).toBe(1);
      // The first write's provenance stands: the retry did not overwrite it.
      expect(plants.stored('1')?.provenance).toEqual({
        createdByTokenId: 'tok-1',
        createdAt: new Date('2025-06-01T12:00:00.000Z'),
      });
    });
  });

  describe('the same id with different content', () => {
    it.each([
      ['another name', PlantInputMother.withTag('Araceae'), PlantInputMother.withTag('Araceae', { name: 'Ficus' })],
      ['another tag', PlantInputMother.withTag('Araceae'), PlantInputMother.withTag('Moraceae')],
      ['a tag where none was stored', PlantInputMother.valid(), PlantInputMother.withTag('Araceae')],
      ['no tag where one was stored', PlantInputMother.withTag('Araceae'), PlantInputMother.valid()],
      [
        'a name differing only by a trailing space',
        PlantInputMother.valid(),
        PlantInputMother.valid({ name: 'Monstera deliciosa ' }),
      ],
    ])('with %s is the conflict outcome and leaves the stored plant unchanged', async (_label, stored, attempt) => {
      const { plants, createPlant } = setUp();
      const first = await createPlant.execute({ plant: validPlant(stored) });
      const result = await createPlant.execute({ plant: validPlant(attempt) });
      // The outcome names what is stored, so a caller can say what the id holds.
      expect(result).toEqual({ outcome: 'conflict', plant: first.plant });
      expect(plants.size).toBe(1);
      expect(plants.stored('1')?.plant).toBe(first.plant);
    });
  });

  it('keeps ids apart exactly: 9007199254740992 and 9007199254740993 are two plants', async () => {
    const { plants, createPlant } = setUp();
    await createPlant.execute({ plant: validPlant(PlantInputMother.valid({ id: '9007199254740992', name: 'even' })) });
    const odd = await createPlant.execute({
      plant: validPlant(PlantInputMother.valid({ id: '9007199254740993', name: 'odd' })),
    });
    expect(odd.outcome).toBe('created');
    expect(plants.size).toBe(2);
  });

  // Validation happens once, in Plant.parse, before the use case: invalid input never becomes a Plant.
  it('cannot be given invalid input: parsing reports every violation, and nothing reaches the store', async () => {
    const { plants, createPlant } = setUp();
    const parsed = Plant.parse(PlantInputMother.invalidEverywhere());
    if (parsed.ok) throw new Error('expected violations');
    const error = new PlantValidationError(parsed.violations);
    expect(error).toBeInstanceOf(PlantValidationError);
    expect(error.violations.map((v) => v.field)).toEqual(['id', 'name', 'tag']);
    // A plain object is not a Plant, whatever it holds (a JavaScript caller has no type checker).
    const unparsed = PlantInputMother.invalidEverywhere() as unknown as Plant;
    await expect(createPlant.execute({ plant: unparsed })).rejects.toThrow(
      new TypeError('CreatePlant takes a Plant: parse the input with Plant.parse first'),
    );
    expect(plants.calls).toEqual([]);
  });

  it('lets the store being unreachable reach the caller as StorageUnavailableError', async () => {
    const { plants, createPlant } = setUp();
    plants.goOffline();
    await expect(createPlant.execute({ plant: validPlant() })).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});
