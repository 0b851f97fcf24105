import { Plant, PlantValidationError } from '@plantstore/domain';
import { checkPlantForm } from '../src/plant-form.js';

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
