import { ifMatchTags, matchesIfNoneMatch, strongEtag } from '../../src/http/entity-tags.js';

const CURRENT = strongEtag('{"name":"Fern"}');

describe('If-Match as the entity tags it names (RFC 9110 §13.1.1)', () => {
  it('names nothing when the header is absent', () => {
    expect(ifMatchTags(undefined)).toBeUndefined();
  });

  it.each([
    ['the current tag', CURRENT, true],
    ['a list holding it, with spaces', ` "other" ,  ${CURRENT} `, true],
    ['*', '*', true],
    ['another tag', '"other"', false],
    ['the current tag made weak (strong comparison)', `W/${CURRENT}`, false],
    ['an unquoted tag', CURRENT.slice(1, -1), false],
    ['a list with one malformed member', `${CURRENT}, bad`, false],
    ['an empty header', '', false],
  ])('%s: %s', (_case, header, matches) => {
    const named = ifMatchTags(header);
    expect(named === '*' || named?.includes(CURRENT)).toBe(matches);
  });
});

describe('If-None-Match (RFC 9110 §13.1.2)', () => {
  it('compares weakly: W/ is ignored, and * matches', () => {
    expect(matchesIfNoneMatch(`W/${CURRENT}`, CURRENT)).toBe(true);
    expect(matchesIfNoneMatch('*', CURRENT)).toBe(true);
    expect(matchesIfNoneMatch('"other"', CURRENT)).toBe(false);
  });
});
