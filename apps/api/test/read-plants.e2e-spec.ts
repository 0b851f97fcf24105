import { postPlant, JSON_UTF8 } from './support/plant-requests.js';
import { getWithToken, idsIn, walk } from './support/read-requests.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

const MIN = '-9223372036854775808';
const MAX = '9223372036854775807';
const BEYOND_2_53 = '9007199254740993';
const ID_RULE = (field: string) =>
  `${field} must be an integer between -9223372036854775808 and 9223372036854775807 in canonical decimal form (0, or an optional minus sign and digits without a leading zero; no plus sign, exponent or spaces)`;
const LIMIT_RULE = 'limit must be a whole number from 1 to 1000 in canonical decimal form (no sign, no leading zero)';
const invalid = (detail: string) => ({ error: 40004, message: `The request parameters are invalid: ${detail}.` });
const READ_SCOPE_REFUSED = {
  status: 403,
  body: { error: 40301, message: 'This token lacks the "plants:read" scope needed for this operation.' },
  challenge: 'Bearer realm="plantstore", error="insufficient_scope", scope="plants:read"',
};

/** Stored once for the whole file: the edges of int64 under the tag `edge`, and a few herbs and trees. */
const SEEDED: ReadonlyArray<readonly [id: string, name: string, tag?: string]> = [
  [MAX, 'max', 'edge'],
  [BEYOND_2_53, 'beyond 2^53', 'edge'],
  ['9007199254740992', '2^53'],
  ['0', 'zero'],
  ['-1', 'minus one', 'edge'],
  [MIN, 'min', 'edge'],
  ['1', 'Basil', 'herb'],
  ['2', 'Oak', 'tree'],
  ['3', 'Mint', 'herb'],
  ['4', 'Cafe\u0301 "quoted" \\ 🌵', 'tree'],
];

describe.each(testEngines())('reading plants ($name)', (engine) => {
  const t = useTestApp({}, engine);
  let writeOnly: string;

  beforeAll(async () => {
    for (const [id, name, tag] of SEEDED) {
      const res = await postPlant(
        t.url,
        t.token,
        JSON.stringify({ name, ...(tag ? { tag } : {}) }).replace('{', `{"id":${id},`),
      );
      if (res.status !== 200) throw new Error(`seeding ${id}: ${res.status} ${res.text}`);
    }
    ({ token: writeOnly } = await t.issueToken({ scopes: ['plants:write'] }));
  });

  describe('GET /plants/{id}', () => {
    it('answers 200 with the plant exactly as the create answered it, and a strong ETag', async () => {
      const created = await postPlant(t.url, t.token, '{"id": 1, "name": "Basil", "tag": "herb"}');
      const res = await getWithToken(t.url, t.token, '/plants/1');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.text).toBe('{"name":"Basil","tag":"herb"}');
      expect(res.text).toBe(created.text);
      expect(res.headers['etag']).toMatch(/^"[!#-~]+"$/);
    });

    it('omits tag when the plant has none, and keeps text exactly as stored', async () => {
      expect((await getWithToken(t.url, t.token, '/plants/0')).text).toBe('{"name":"zero"}');
      const res = await getWithToken(t.url, t.token, '/plants/4');
      expect(res.body).toEqual({ name: 'Cafe\u0301 "quoted" \\ 🌵', tag: 'tree' });
    });

    it.each([
      [MIN, '{"name":"min","tag":"edge"}'],
      [MAX, '{"name":"max","tag":"edge"}'],
      ['-1', '{"name":"minus one","tag":"edge"}'],
      [BEYOND_2_53, '{"name":"beyond 2^53","tag":"edge"}'],
      ['9007199254740992', '{"name":"2^53"}'],
    ])('finds id %s exactly', async (id, body) => {
      const res = await getWithToken(t.url, t.token, `/plants/${id}`);
      expect([res.status, res.text]).toEqual([200, body]);
    });

    it('answers 304 without a body when If-None-Match holds the current ETag (also weak, in a list, or *)', async () => {
      const { headers } = await getWithToken(t.url, t.token, '/plants/3');
      const etag = headers['etag'] as string;
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await getWithToken(t.url, t.token, '/plants/3', { 'If-None-Match': ifNoneMatch });
        expect(res.status).toBe(304);
        expect(res.text).toBe('');
        expect(res.headers['etag']).toBe(etag);
      }
      const other = await getWithToken(t.url, t.token, '/plants/1', { 'If-None-Match': etag });
      expect([other.status, other.text]).toEqual([200, '{"name":"Basil","tag":"herb"}']);
      expect(other.headers['etag']).not.toBe(etag);
    });

    it('answers 404/40402 naming the id for an id no plant has, distinct from 40401', async () => {
      const res = await getWithToken(t.url, t.token, '/plants/9007199254740994');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body).toEqual({ error: 40402, message: 'There is no plant with id 9007199254740994.' });
    });

    it.each(['007', '1e2', '+5', '-0', '9223372036854775808', '-9223372036854775809', 'abc', '%205', '1.0', '0x1'])(
      'answers 400/40004 for the id %s, naming the parameter and the rule',
      async (id) => {
        const res = await getWithToken(t.url, t.token, `/plants/${id}`);
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toBe(JSON_UTF8);
        expect(res.body).toEqual(invalid(ID_RULE('id')));
      },
    );

    it('answers 400/40004 for /plants/ (an empty id), not the list', async () => {
      const res = await getWithToken(t.url, t.token, '/plants/');
      expect([res.status, res.body]).toEqual([400, invalid(ID_RULE('id'))]);
    });

    it('checks the token before the id: 401 without one, 403 without plants:read, whatever the id', async () => {
      for (const path of ['/plants/1', '/plants/007', '/plants/404404']) {
        const anonymous = await getWithToken(t.url, undefined, path);
        expect([anonymous.status, anonymous.body.error]).toEqual([401, 40101]);
        expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="plantstore"');
        const refused = await getWithToken(t.url, 'pst_' + 'A'.repeat(43), path);
        expect([refused.status, refused.body.error]).toEqual([401, 40102]);
        const res = await getWithToken(t.url, writeOnly, path);
        expect([res.status, res.body]).toEqual([READ_SCOPE_REFUSED.status, READ_SCOPE_REFUSED.body]);
        expect(res.headers['www-authenticate']).toBe(READ_SCOPE_REFUSED.challenge);
      }
    });

    it('lets a read-only token read but not create', async () => {
      const { token: reader } = await t.issueToken({ scopes: ['plants:read'] });
      expect((await getWithToken(t.url, reader, '/plants/2')).text).toBe('{"name":"Oak","tag":"tree"}');
      const create = await postPlant(t.url, reader, '{"id": 99, "name": "nope"}');
      expect([create.status, create.body.error]).toEqual([403, 40301]);
    });
  });

  describe('GET /plants', () => {
    it('answers every plant ascending by id value, ids as exact JSON numbers, without Link on a short page', async () => {
      const res = await getWithToken(t.url, t.token, '/plants');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.headers['link']).toBeUndefined();
      expect(res.text).toBe(
        '[' +
          [
            `{"id":${MIN},"name":"min","tag":"edge"}`,
            '{"id":-1,"name":"minus one","tag":"edge"}',
            '{"id":0,"name":"zero"}',
            '{"id":1,"name":"Basil","tag":"herb"}',
            '{"id":2,"name":"Oak","tag":"tree"}',
            '{"id":3,"name":"Mint","tag":"herb"}',
            `{"id":4,"name":${JSON.stringify('Cafe\u0301 "quoted" \\ 🌵')},"tag":"tree"}`,
            '{"id":9007199254740992,"name":"2^53"}',
            `{"id":${BEYOND_2_53},"name":"beyond 2^53","tag":"edge"}`,
            `{"id":${MAX},"name":"max","tag":"edge"}`,
          ].join(',') +
          ']',
      );
    });

    it('gives a full page a next Link (even when the next page is empty) and a short page none', async () => {
      const first = await getWithToken(t.url, t.token, '/plants?tags=edge&limit=2');
      expect(idsIn(first.text)).toEqual([MIN, '-1']);
      expect(first.headers['link']).toBe('</plants?tags=edge&limit=2&after=-1>; rel="next"');
      const second = await getWithToken(t.url, t.token, '/plants?tags=edge&limit=2&after=-1');
      expect(second.text).toBe(
        `[{"id":${BEYOND_2_53},"name":"beyond 2^53","tag":"edge"},{"id":${MAX},"name":"max","tag":"edge"}]`,
      );
      expect(second.headers['link']).toBe(`</plants?tags=edge&limit=2&after=${MAX}>; rel="next"`);
      const third = await getWithToken(t.url, t.token, `/plants?tags=edge&limit=2&after=${MAX}`);
      expect([third.status, third.text, third.headers['link']]).toEqual([200, '[]', undefined]);
      const short = await getWithToken(t.url, t.token, '/plants?tags=edge&limit=5');
      expect([idsIn(short.text).length, short.headers['link']]).toEqual([4, undefined]);
    });

    it('keeps only plants whose tag equals one of the tags given, and carries them into the next Link', async () => {
      const res = await getWithToken(t.url, t.token, '/plants?tags=herb&tags=tree&limit=3');
      expect(idsIn(res.text)).toEqual(['1', '2', '3']);
      expect(res.headers['link']).toBe('</plants?tags=herb&tags=tree&limit=3&after=3>; rel="next"');
      expect((await getWithToken(t.url, t.token, '/plants?tags=Herb')).text).toBe('[]');
      const encoded = await getWithToken(t.url, t.token, '/plants?tags=a%20b%26c&limit=1');
      expect(encoded.text).toBe('[]');
    });

    it('percent-encodes tags in the next Link', async () => {
      await postPlant(t.url, t.token, '{"id": 500, "name": "odd tag", "tag": "a b&c/é"}');
      const res = await getWithToken(t.url, t.token, `/plants?tags=${encodeURIComponent('a b&c/é')}&limit=1`);
      expect(idsIn(res.text)).toEqual(['500']);
      expect(res.headers['link']).toBe('</plants?tags=a%20b%26c%2F%C3%A9&limit=1&after=500>; rel="next"');
    });

    it('walks every plant once, ascending, by following next', async () => {
      const all = (await t.plants()).map((p) => p.id);
      const { ids, pages } = await walk(t.url, t.token, '/plants?limit=3');
      expect(ids).toEqual([...all].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
      expect(pages.slice(0, -1).every((size) => size === 3)).toBe(true);
    });

    it.each([
      ['limit=0', LIMIT_RULE],
      ['limit=1001', LIMIT_RULE],
      ['limit=01', LIMIT_RULE],
      ['limit=-5', LIMIT_RULE],
      ['limit=ten', LIMIT_RULE],
      ['limit=', LIMIT_RULE],
      ['after=007', ID_RULE('after')],
      ['after=1e2', ID_RULE('after')],
      ['after=9223372036854775808', ID_RULE('after')],
      ['after=', ID_RULE('after')],
      ['tags=', 'tags must be 1 to 64 characters long (got 0)'],
      [`tags=${'x'.repeat(65)}`, 'tags must be 1 to 64 characters long (got 65)'],
      ['limit=1&limit=2', 'limit must be given at most once'],
      ['after=1&after=2', 'after must be given at most once'],
      ['cursor=5', 'cursor is not a query parameter of this operation (known: tags, name, limit, after)'],
      ['tag=herb', 'tag is not a query parameter of this operation (known: tags, name, limit, after)'],
      ['limit=0&after=+1', `${LIMIT_RULE}; ${ID_RULE('after')}`],
      ['name=', 'name must be 1 to 200 characters long (got 0)'],
      [`name=${'é'.repeat(201)}`, 'name must be 1 to 200 characters long (got 201)'],
      ['name=%20%20', 'name must not be only white space'],
      ['name=a%07b', 'name must not contain control characters (U+0000-U+001F, U+007F-U+009F)'],
      ['name=%CC%81', 'name must hold more than accents and other combining marks'],
      ['name=a&name=b', 'name must be given at most once'],
      [
        'tags=&name=&limit=0',
        `tags must be 1 to 64 characters long (got 0); name must be 1 to 200 characters long (got 0); ${LIMIT_RULE}`,
      ],
    ])('answers 400/40004 for ?%s, naming the parameter', async (query, detail) => {
      const res = await getWithToken(t.url, t.token, `/plants?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body).toEqual(invalid(detail));
    });

    it('finds plants whose name contains a text, case and accents aside, ascending by id', async () => {
      const cafe = await getWithToken(t.url, t.token, `/plants?name=${encodeURIComponent('CAFÉ "QUOTED"')}`);
      expect([cafe.status, cafe.headers['content-type'], cafe.body]).toEqual([
        200,
        JSON_UTF8,
        [{ id: 4, name: 'Cafe\u0301 "quoted" \\ 🌵', tag: 'tree' }],
      ]);
      expect(idsIn((await getWithToken(t.url, t.token, '/plants?name=MIN')).text)).toEqual([MIN, '-1', '3']);
      expect(idsIn((await getWithToken(t.url, t.token, '/plants?name=nowhere')).text)).toEqual([]);
    });

    it('finds SS by ß and ß by ss', async () => {
      await postPlant(t.url, t.token, '{"id": 600, "name": "STRASSENBAUM"}');
      await postPlant(t.url, t.token, '{"id": 601, "name": "Straßenbaum"}');
      for (const text of ['ß', 'ss', 'SS'])
        expect(idsIn((await getWithToken(t.url, t.token, `/plants?name=${encodeURIComponent(text)}`)).text)).toEqual([
          '600',
          '601',
        ]);
    });

    it('combines a name with tags, and carries the name into the next Link, percent-encoded', async () => {
      expect(idsIn((await getWithToken(t.url, t.token, '/plants?name=min&tags=herb')).text)).toEqual(['3']);
      const res = await getWithToken(t.url, t.token, `/plants?name=${encodeURIComponent('mi n')}&limit=1`);
      expect(res.text).toBe('[]');
      const first = await getWithToken(t.url, t.token, '/plants?tags=edge&name=Mi&limit=1');
      expect(idsIn(first.text)).toEqual([MIN]);
      expect(first.headers['link']).toBe(`</plants?tags=edge&name=Mi&limit=1&after=${MIN}>; rel="next"`);
      const spaced = await getWithToken(t.url, t.token, `/plants?name=${encodeURIComponent('minus o')}&limit=1`);
      expect(spaced.headers['link']).toBe('</plants?name=minus%20o&limit=1&after=-1>; rel="next"');
    });

    it('walks the plants a name finds once each, ascending, by following next', async () => {
      const { ids, pages } = await walk(t.url, t.token, '/plants?name=I&limit=2');
      const all = (await t.plants()).filter((p) => /i/i.test(p.name)).map((p) => p.id);
      expect(ids).toEqual([...all].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
      expect(pages.slice(0, -1).every((size) => size === 2)).toBe(true);
    });

    it('never repeats a parameter name that could be a pasted token', async () => {
      const secret = `pst_${'B'.repeat(43)}`;
      const res = await getWithToken(t.url, t.token, `/plants?${secret}=1`);
      expect(res.body).toEqual(
        invalid('a parameter is not a query parameter of this operation (known: tags, name, limit, after)'),
      );
    });

    it('checks the token before the parameters: 401 without one, 403 without plants:read', async () => {
      for (const path of ['/plants', '/plants?limit=0', '/plants?nonsense=1']) {
        const anonymous = await getWithToken(t.url, undefined, path);
        expect([anonymous.status, anonymous.body.error]).toEqual([401, 40101]);
        const res = await getWithToken(t.url, writeOnly, path);
        expect([res.status, res.body]).toEqual([READ_SCOPE_REFUSED.status, READ_SCOPE_REFUSED.body]);
        expect(res.headers['www-authenticate']).toBe(READ_SCOPE_REFUSED.challenge);
      }
    });
  });
});
