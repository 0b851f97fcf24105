import { postPlant, JSON_UTF8 } from './support/plant-requests.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

describe.each(testEngines())('POST /plants: creating plants ($name)', (engine) => {
  const t = useTestApp({}, engine);

  it('answers 200 with exactly name and tag, stores the plant, and ignores extra properties', async () => {
    const res = await postPlant(
      t.url,
      t.token,
      '{"id": 1, "name": "Monstera", "tag": "tropical", "color": "green", "__proto__": {"x": 1}, "constructor": {}}',
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_UTF8);
    expect(res.text).toBe('{"name":"Monstera","tag":"tropical"}');
    expect(await t.plants()).toContainEqual({ id: '1', name: 'Monstera', tag: 'tropical' });
  });

  it('omits tag from the response when the plant has none', async () => {
    const res = await postPlant(t.url, t.token, '{"id": 2, "name": "Fern"}');
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"name":"Fern"}');
  });

  it('keeps names exactly as sent: no trimming, no normalisation, astral characters intact', async () => {
    const name = '  Cafe\u0301 🌵 ';
    const res = await postPlant(t.url, t.token, JSON.stringify({ id: 3, name }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name });
    expect((await t.plants()).find((p) => p.id === '3')?.name).toBe(name);
  });

  it.each([
    ['1.0', '10'],
    ['1e2', '100'],
    ['-0', '0'],
    ['9223372036854775807', '9223372036854775807'],
    ['-9223372036854775808', '-9223372036854775808'],
  ])('accepts the integer literal %s as id %s', async (literal, stored) => {
    const res = await postPlant(
      t.url,
      t.token,
      `{"id": ${literal === '1.0' ? '10.0' : literal}, "name": "literal ${literal}"}`,
    );
    expect(res.status).toBe(200);
    expect((await t.plants()).map((p) => p.id)).toContain(stored);
  });

  it('keeps 9007199254740992 and 9007199254740993 as two different plants', async () => {
    const a = await postPlant(t.url, t.token, '{"id": 9007199254740992, "name": "even"}');
    const b = await postPlant(t.url, t.token, '{"id": 9007199254740993, "name": "odd"}');
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await t.plants();
    expect(rows).toContainEqual({ id: '9007199254740992', name: 'even', tag: null });
    expect(rows).toContainEqual({ id: '9007199254740993', name: 'odd', tag: null });

    for (const [id, name] of [
      ['9007199254740992', 'changed even'],
      ['9007199254740993', 'changed odd'],
    ]) {
      const changed = await postPlant(t.url, t.token, `{"id": ${id}, "name": "${name}"}`);
      expect(changed.status).toBe(409);
      expect(changed.body).toEqual({
        error: 40901,
        message: `A plant with id ${id} already exists with a different name or tag; choose another id.`,
      });
    }
    expect(await t.plants()).toEqual(rows);
  });

  describe('duplicate ids', () => {
    it('answers an identical retry with 200 and the stored plant, writing nothing', async () => {
      const first = await postPlant(t.url, t.token, '{"id": 50, "name": "Aloe", "tag": "succulent"}');
      const before = await t.plants();
      const retry = await postPlant(t.url, t.token, '{"tag": "succulent", "name": "Aloe", "id": 5e1}');
      expect([first.status, retry.status]).toEqual([200, 200]);
      expect(retry.text).toBe('{"name":"Aloe","tag":"succulent"}');
      expect(await t.plants()).toEqual(before);
    });

    it.each([
      ['a different name', '{"id": 60, "name": "Other"}'],
      ['a tag where there was none', '{"id": 60, "name": "Basil", "tag": "herb"}'],
    ])('answers 409 for %s and keeps the stored plant', async (_case, body) => {
      await postPlant(t.url, t.token, '{"id": 60, "name": "Basil"}');
      const res = await postPlant(t.url, t.token, body);
      expect(res.status).toBe(409);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body.error).toBe(40901);
      expect((await t.plants()).find((p) => p.id === '60')).toEqual({ id: '60', name: 'Basil', tag: null });
    });

    it('answers 409 when a stored tag is missing from the retry', async () => {
      await postPlant(t.url, t.token, '{"id": 61, "name": "Mint", "tag": "herb"}');
      const res = await postPlant(t.url, t.token, '{"id": 61, "name": "Mint"}');
      expect(res.status).toBe(409);
    });
  });
});
