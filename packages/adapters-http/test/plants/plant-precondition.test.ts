import { preconditionOf } from '../../src/plants/plant-precondition.js';
import { versionTag } from '../../src/plants/plant-representation.js';

// A plant's ETag names its version; If-Match is read back as the versions the caller expects.
describe('If-Match as the versions of a plant the caller expects', () => {
  it('writes a version as a strong tag, the same for the same version', () => {
    expect(versionTag(3)).toBe('"3"');
    expect(versionTag(3)).toBe(versionTag(3));
    expect(versionTag(4)).not.toBe(versionTag(3));
  });

  it('sets no precondition when If-Match is absent or *', () => {
    expect(preconditionOf(undefined)).toBeUndefined();
    expect(preconditionOf(' * ')).toBeUndefined();
  });

  it.each([
    ['one tag', versionTag(2), [2]],
    ['a list, with spaces', ` ${versionTag(2)} ,${versionTag(9)}`, [2, 9]],
    ['a weak tag (compared strongly: none)', `W/${versionTag(2)}`, []],
    ['a tag that names no version', '"q2v2s1Dh6xqO3C3fF5y8JcWQHc9f0bUkvQ7o5qk8y4E"', []],
    ['version 0, which no plant has', '"0"', []],
    ['a list with one malformed member', `${versionTag(2)}, bad`, []],
    ['an empty header', '', []],
  ])('reads %s as the versions %j', (_case, header, versions) => {
    expect(preconditionOf(header)).toEqual({ versions });
  });
});
