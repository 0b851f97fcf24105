import { postPlant } from './support/plant-requests.js';
import { testEngines } from './support/engines.js';
import { useTestApp } from './support/test-app.js';

describe.each(testEngines())('POST /plants under concurrency ($name)', (engine) => {
  const t = useTestApp({}, engine);

  it('50 concurrent creates of one new id with 50 names: exactly one 200, 49 409s, one row', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postPlant(t.url, t.token, `{"id": 4242, "name": "contender ${i}"}`)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const rows = (await t.plants()).filter((p) => p.id === '4242');
    expect(rows).toHaveLength(1);
    const winner = responses.find((r) => r.status === 200)!;
    expect(winner.body).toEqual({ name: rows[0]!.name });
  });

  it('50 concurrent identical creates: 50 × 200, one row', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postPlant(t.url, t.token, '{"id": 4343, "name": "twin", "tag": "same"}')),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    for (const r of responses) expect(r.text).toBe('{"name":"twin","tag":"same"}');
    expect((await t.plants()).filter((p) => p.id === '4343')).toEqual([{ id: '4343', name: 'twin', tag: 'same' }]);
  });

  it('many distinct ids at once are all stored, and each is answered with its own plant', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => 9_000_000_000_000_000_000n + BigInt(i));
    const responses = await Promise.all(ids.map((id) => postPlant(t.url, t.token, `{"id": ${id}, "name": "n${id}"}`)));
    responses.forEach((r, i) => expect(r.body).toEqual({ name: `n${ids[i]}` }));
    const stored = new Set((await t.plants()).map((p) => p.id));
    for (const id of ids) expect(stored.has(id.toString())).toBe(true);
  });
});
