import { PlantId } from '@plantstore/domain';
import { preconditionOf } from '../../src/plants/plant-precondition.js';
import { versionTag } from '../../src/plants/plant-representation.js';

const id = PlantId.fromStored('-42');
const other = PlantId.fromStored('42');

// A plant's ETag names it and its version; If-Match is read back as the versions the caller expects.
describe('If-Match as the versions of a plant the caller expects', () => {
  it('writes a plant at a version as a strong tag: another version or another plant, another tag', () => {
    expect(versionTag(id, 3)).toBe('"-42v3"');
    expect(versionTag(id, 3)).toBe(versionTag(id, 3));
    expect(versionTag(id, 4)).not.toBe(versionTag(id, 3));
    expect(versionTag(other, 3)).not.toBe(versionTag(id, 3));
  });

  it('sets no precondition when If-Match is absent or *', () => {
    expect(preconditionOf(undefined, id)).toBeUndefined();
    expect(preconditionOf(' * ', id)).toBeUndefined();
  });

  it.each([
    ['one tag', versionTag(id, 2), [2]],
    ['a list, with spaces', ` ${versionTag(id, 2)} ,${versionTag(id, 9)}`, [2, 9]],
    ['another plant’s tag', versionTag(other, 2), []],
    ['a weak tag (compared strongly: none)', `W/${versionTag(id, 2)}`, []],
    ['a tag this server never wrote', '"q2v2s1Dh6xqO3C3fF5y8JcWQHc9f0bUkvQ7o5qk8y4E"', []],
    ['version 0, which no plant has', '"-42v0"', []],
    ['a list with one malformed member', `${versionTag(id, 2)}, bad`, []],
    ['an empty header', '', []],
  ])('reads %s as the versions %j', (_case, header, versions) => {
    expect(preconditionOf(header, id)).toEqual({ versions });
  });
});
