import { Plant, PlantId, PlantValidationError } from '@plantstore/domain';
import { checkPlantChange, checkPlantForm } from '../src/plant-form.js';

describe('the add form, checked by the domain before anything is sent', () => {
  it('gives the client an exact bigint id, and no tag for an empty tag field', () => {
    expect(checkPlantForm({ id: '9007199254740993', name: 'Monstera', tag: '' })).toEqual({
      ok: true,
      plant: { id: 9007199254740993n, name: 'Monstera' },
    });
    expect(checkPlantForm({ id: '-9223372036854775808', name: ' Fern ', tag: 'shade' })).toEqual({
      ok: true,
      plant: { id: -9223372036854775808n, name: ' Fern ', tag: 'shade' },
    });
  });

  it('reads the id as the JSON number the server would read', () => {
    expect(checkPlantForm({ id: '1e2', name: 'Fern', tag: '' })).toEqual({
      ok: true,
      plant: { id: 100n, name: 'Fern' },
    });
  });

  it("says the server's sentence for the same plant, and each field's own problems", () => {
    const input = { id: '9223372036854775808', name: '', tag: ' \u3000' };
    const checked = checkPlantForm(input);
    const parsed = Plant.parse(input);
    if (checked.ok || parsed.ok) throw new Error('an invalid plant');
    expect(checked.sentence).toBe(new PlantValidationError(parsed.violations).message);
    expect(checked.sentence).toMatch(/^The plant is invalid: id .*; name .*; tag .*\.$/);
    expect([...checked.problems.keys()]).toEqual(['id', 'name', 'tag']);
    expect(checked.problems.get('name')).toBe('name must be 1 to 200 characters long (got 0)');
  });

  it("joins one field's problems", () => {
    const checked = checkPlantForm({ id: '1', name: `${'x'.repeat(201)}\u0007`, tag: '' });
    if (checked.ok) throw new Error('an invalid plant');
    expect(checked.problems.get('name')).toBe(
      'name must be 1 to 200 characters long (got 202); name must not contain control characters (U+0000-U+001F, U+007F-U+009F)',
    );
  });
});

describe('the edit form, checked as the server checks a PUT before anything is sent', () => {
  const id = PlantId.fromBigInt(9007199254740993n);
  if (!(id instanceof PlantId)) throw new Error('an id');

  it('gives the client the new name and tag exactly as typed; an empty tag removes the tag', () => {
    expect(checkPlantChange(id, { name: ' Ficus lyrata ', tag: 'bright light' })).toEqual({
      ok: true,
      change: { name: ' Ficus lyrata ', tag: 'bright light' },
    });
    expect(checkPlantChange(id, { name: 'Ficus', tag: '' })).toEqual({ ok: true, change: { name: 'Ficus' } });
  });

  it("says the server's sentence for the same body, and each field's own problems", () => {
    const input = { name: '\u3000', tag: 'x'.repeat(65) };
    const checked = checkPlantChange(id, input);
    const parsed = Plant.parseReplacement(id, input);
    if (checked.ok || parsed.ok) throw new Error('an invalid change');
    expect(checked.sentence).toBe(new PlantValidationError(parsed.violations).message);
    expect(checked.sentence).toMatch(
      /^The plant is invalid: name .*; tag must be 1 to 64 characters long \(got 65\)\.$/,
    );
    expect([...checked.problems.keys()]).toEqual(['name', 'tag']);
  });
});
