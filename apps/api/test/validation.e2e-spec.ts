import { postPlant, JSON_UTF8 } from './support/plant-requests.js';
import { rawRequest } from './support/raw-http.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

const RANGE = 'id must be an integer between -9223372036854775808 and 9223372036854775807';

describe.each(testEngines())(
  'POST /plants: bad input is a 400 with a clear message and changes nothing ($name)',
  (engine) => {
    const t = useTestApp({}, engine);
    afterEach(async () => expect(await t.plants()).toEqual([]));

    it.each([
      ['an empty body', '', 'The request body is empty; send a JSON object.'],
      [
        'malformed JSON',
        '{"id": 1,',
        'The request body is not valid JSON: Expected double-quoted property name in JSON at position 9 (line 1 column 10).',
      ],
      [
        'a trailing comma',
        '{"id": 1, "name": "a",}',
        'The request body is not valid JSON: Expected double-quoted property name in JSON at position 22 (line 1 column 23).',
      ],
    ])('40001 for %s', async (_case, body, message) => {
      const res = await postPlant(t.url, t.token, body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body).toEqual({ error: 40001, message });
    });

    it('40001 for a body that is not UTF-8', async () => {
      const body = Buffer.concat([Buffer.from('{"id": 1, "name": "'), Buffer.from([0xff]), Buffer.from('"}')]);
      const head = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      // keepOpen: Node's HTTP server drops a request whose client half-closes before the answer,
      // which happens whenever authentication waits on a networked database (PostgreSQL).
      const res = await rawRequest(t.url, Buffer.concat([Buffer.from(head), body]), { keepOpen: true });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: 40001, message: 'The request body is not valid UTF-8.' });
    });

    it.each([
      ['[1]', 'an array'],
      ['"plant"', 'a string'],
      ['42', 'a number'],
      ['null', 'null'],
      ['true', 'a boolean'],
    ])('40002 for the JSON value %s', async (body, what) => {
      const res = await postPlant(t.url, t.token, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 40002, message: `The request body must be a JSON object, not ${what}.` });
    });

    it.each([
      ['{}', 'id is required; name is required'],
      ['{"id": "1", "name": "a"}', 'id must be a JSON number'],
      ['{"id": true, "name": "a"}', 'id must be a JSON number'],
      ['{"id": null, "name": "a"}', 'id is required'],
      ['{"id": 1.5, "name": "a"}', RANGE],
      ['{"id": 1e-1, "name": "a"}', RANGE],
      ['{"id": 9223372036854775808, "name": "a"}', RANGE],
      ['{"id": -9223372036854775809, "name": "a"}', RANGE],
      ['{"id": 1e1000000000, "name": "a"}', RANGE],
      ['{"id": 1, "name": 5}', 'name must be a string'],
      ['{"id": 1, "name": ""}', 'name must be 1 to 200 characters long (got 0)'],
      ['{"id": 1, "name": "\\u3000"}', 'name must not be only white space'],
      ['{"id": 1, "name": "a\\u0000b"}', 'name must not contain control characters (U+0000-U+001F, U+007F-U+009F)'],
      ['{"id": 1, "name": "a\\ud800"}', 'name must not contain unpaired UTF-16 surrogates'],
      ['{"id": 1, "name": "a", "tag": null}', 'tag must be a string if present; omit it for no tag'],
      ['{"id": 1, "name": "a", "tag": ""}', 'tag must be 1 to 64 characters long (got 0)'],
      [`{"id": 1, "name": "${'🌵'.repeat(201)}"}`, 'name must be 1 to 200 characters long (got 201)'],
      [`{"id": 1, "name": "a", "tag": "${'x'.repeat(65)}"}`, 'tag must be 1 to 64 characters long (got 65)'],
    ])('40003 for %s', async (body, problems) => {
      const res = await postPlant(t.url, t.token, body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body).toEqual({ error: 40003, message: `The plant is invalid: ${problems}.` });
    });

    it('reports every field problem of one request together, each naming its field', async () => {
      const res = await postPlant(t.url, t.token, '{"id": 0.5, "name": " ", "tag": 7}');
      expect(res.body).toEqual({
        error: 40003,
        message: `The plant is invalid: ${RANGE}; name must not be only white space; tag must be a string if present; omit it for no tag.`,
      });
    });

    it('accepts 200 astral code points as a name (400 UTF-16 units)', async () => {
      const res = await postPlant(t.url, t.token, `{"id": 7, "name": "${'🌵'.repeat(200)}"}`);
      expect(res.status).toBe(200);
      await t.dataSource.query('DELETE FROM plant');
    });
  },
);
