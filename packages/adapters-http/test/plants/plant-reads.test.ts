import { Plant, PlantPageQuery, PlantQueryError } from '@plantstore/domain';
import { ApiError } from '../../src/errors/api-error.js';
import { matchesIfNoneMatch, strongEtag } from '../../src/http/entity-tags.js';
import { routeEmptyPlantId } from '../../src/plants/empty-plant-id.js';
import { nextLink, plantListBody } from '../../src/plants/list/plant-list-representation.js';
import { plantPageQueryOf } from '../../src/plants/list/plant-page-query.decorator.js';
import { plantBody } from '../../src/plants/plant-representation.js';

function plant(id: string, name: string, tag?: string): Plant {
  const parsed = Plant.parse(tag === undefined ? { id, name } : { id, name, tag });
  if (!parsed.ok) throw new Error('test plant is invalid');
  return parsed.plant;
}

function query(input: { tags?: string[]; limit?: string; after?: string }): PlantPageQuery {
  const parsed = PlantPageQuery.parse(input);
  if (!parsed.ok) throw new Error('test query is invalid');
  return parsed.query;
}

describe('the bodies of the reads', () => {
  it('writes a list with every id as its exact digits, a JSON number, and tag only when present', () => {
    const body = plantListBody([
      plant('-9223372036854775808', 'min'),
      plant('9007199254740993', 'odd "quoted" \\ \u2028', 'big'),
    ]);
    expect(body).toBe(
      '[{"id":-9223372036854775808,"name":"min"},{"id":9007199254740993,"name":"odd \\"quoted\\" \\\\ \u2028","tag":"big"}]',
    );
    // Valid JSON for any parser (one that keeps big integers also keeps the ids).
    expect((JSON.parse(body) as Array<{ name: string }>).map((p) => p.name)).toEqual(['min', 'odd "quoted" \\ \u2028']);
    expect(plantListBody([])).toBe('[]');
  });

  it('writes one plant as the create answers it: no id', () => {
    expect(plantBody(plant('7', 'Fern'))).toBe('{"name":"Fern"}');
    expect(plantBody(plant('7', 'Fern', 'fern'))).toBe('{"name":"Fern","tag":"fern"}');
  });

  it('links the next page with the same tags (percent-encoded) and limit, after the last id', () => {
    expect(nextLink(query({ tags: ['a b&c', 'é'], limit: '2', after: '-5' }))).toBe(
      '</plants?tags=a%20b%26c&tags=%C3%A9&limit=2&after=-5>; rel="next"',
    );
    expect(nextLink(query({}))).toBe('</plants?limit=100>; rel="next"');
  });
});

describe('ETag and If-None-Match', () => {
  const etag = strongEtag('{"name":"Fern"}');

  it('is a strong tag of the bytes: same body, same tag; another body, another tag', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(strongEtag('{"name":"Fern"}')).toBe(etag);
    expect(strongEtag('{"name":"Fern","tag":"x"}')).not.toBe(etag);
  });

  it.each([
    [etag, true],
    [`W/${etag}`, true],
    [`"a", ${etag} , "b"`, true],
    ['*', true],
    [' * ', true],
    ['"a"', false],
    [etag.slice(1, -1), false],
    ['', false],
  ])('If-None-Match %j matches: %s', (header, matches) => {
    expect(matchesIfNoneMatch(header, etag)).toBe(matches);
  });

  it('an absent If-None-Match never matches', () => {
    expect(matchesIfNoneMatch(undefined, etag)).toBe(false);
  });
});

describe('the query of GET /plants', () => {
  it('hands tags (one or repeated), limit and after to the domain', () => {
    expect(plantPageQueryOf({}).toJSON()).toEqual({ tags: [], limit: 100 });
    expect(plantPageQueryOf({ tags: 'a', limit: '5', after: '-1' }).toJSON()).toEqual({
      tags: ['a'],
      limit: 5,
      after: '-1',
    });
    expect(plantPageQueryOf({ tags: ['a', 'b'] }).toJSON()).toEqual({ tags: ['a', 'b'], limit: 100 });
  });

  it('refuses an unknown parameter, naming it only when it cannot be a pasted token', () => {
    expect(() => plantPageQueryOf({ cursor: '1' })).toThrow(
      'The request parameters are invalid: cursor is not a query parameter of this operation (known: tags, name, limit, after).',
    );
    expect(() => plantPageQueryOf({ [`pst_${'x'.repeat(43)}`]: '' })).toThrow(
      /^The request parameters are invalid: a parameter is not/,
    );
    expect(() => plantPageQueryOf({ cursor: '1' })).toThrow(ApiError);
  });

  it('refuses limit or after given twice', () => {
    expect(() => plantPageQueryOf({ limit: ['1', '2'] })).toThrow('limit must be given at most once');
    expect(() => plantPageQueryOf({ after: ['1', '2'] })).toThrow('after must be given at most once');
  });

  it("lets the domain's rules word a bad value", () => {
    expect(() => plantPageQueryOf({ limit: '0' })).toThrow(PlantQueryError);
  });
});

describe('/plants/ is routed as an empty id', () => {
  it.each([
    ['/plants/', '/plants/%20'],
    ['/plants/?limit=1', '/plants/%20?limit=1'],
    ['/plants', '/plants'],
    ['/plants?x=/plants/', '/plants?x=/plants/'],
    ['/plants/5', '/plants/5'],
    ['/plants//', '/plants//'],
    ['/other/', '/other/'],
  ])('%s → %s', (url, routed) => {
    expect(routeEmptyPlantId(url)).toBe(routed);
  });
});
