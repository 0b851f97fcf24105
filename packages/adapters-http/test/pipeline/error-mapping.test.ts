import { StorageUnavailableError, type Plant, type PlantState } from '@plantstore/domain';
import { InMemoryPlantRepository } from '@plantstore/domain/testing';
import { startHttpTestApp, type HttpTestApp } from '../support/http-test-app.js';

/** The in-memory store, failing as told: what a driven adapter may throw. */
class FailingStore extends InMemoryPlantRepository {
  failure: Error | undefined;

  override async insertIfAbsent(...args: Parameters<InMemoryPlantRepository['insertIfAbsent']>) {
    if (this.failure !== undefined) throw this.failure;
    return super.insertIfAbsent(...args);
  }

  override async findById(...args: Parameters<InMemoryPlantRepository['findById']>): Promise<Plant | undefined> {
    if (this.failure !== undefined) throw this.failure;
    return super.findById(...args);
  }

  override async stateOf(...args: Parameters<InMemoryPlantRepository['stateOf']>): Promise<PlantState | undefined> {
    if (this.failure !== undefined) throw this.failure;
    return super.stateOf(...args);
  }
}

// Every failure leaves as the Error body with a catalogued code, and is counted.
describe('what each failure of a request answers', () => {
  const store = new FailingStore();
  let t: HttpTestApp;
  let token: string;

  beforeAll(async () => {
    t = await startHttpTestApp({ plants: store });
    token = await t.token(['plants:write', 'plants:read']);
  });
  afterEach(() => (store.failure = undefined));
  afterAll(() => t.app.close());

  const create = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/plants',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: body,
    });

  async function metric(line: string): Promise<number> {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    return found === undefined ? 0 : Number(found.slice(line.length + 1));
  }

  it('answers a store that cannot be reached with 503 50301 and Retry-After, and counts it', async () => {
    const before = await metric('plantstore_database_errors_total');
    store.failure = new StorageUnavailableError('disk full', { reason: 'disk full' });
    const response = await create('{"id": 1, "name": "Fern"}');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toEqual({ error: 50301, message: expect.any(String) });
    expect(response.body).not.toContain('disk full');
    expect(await metric('plantstore_database_errors_total')).toBe(before + 1);
  });

  it('answers an unexpected failure with 500 50001, no stack and no message of its own, and counts it', async () => {
    const before = await metric('plantstore_internal_errors_total');
    store.failure = new Error('SELECT * FROM plants: secret detail');
    const response = await t.app.inject({
      method: 'GET',
      url: '/plants/1',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 50001, message: expect.any(String) });
    expect(response.body).not.toMatch(/SELECT|secret|at .*\.js/);
    expect(await metric('plantstore_internal_errors_total')).toBe(before + 1);
  });

  it('answers an id taken with other content with 409 40901, counting each outcome of a create', async () => {
    const outcome = (name: string) => metric(`plantstore_plants_total{outcome="${name}"}`);
    const [created, replayed, conflict] = [
      await outcome('created'),
      await outcome('replayed'),
      await outcome('conflict'),
    ];
    expect((await create('{"id": 7, "name": "Fern"}')).statusCode).toBe(200);
    expect((await create('{"id": 7, "name": "Fern"}')).statusCode).toBe(200);
    const clash = await create('{"id": 7, "name": "Moss"}');
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ error: 40901, message: expect.stringContaining('7') });
    expect([await outcome('created'), await outcome('replayed'), await outcome('conflict')]).toEqual([
      created + 1,
      replayed + 1,
      conflict + 1,
    ]);
  });

  it('answers a known path with another method with 405 and Allow, naming the route', async () => {
    const response = await t.app.inject({ method: 'PATCH', url: '/plants/12' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    expect(response.json()).toEqual({ error: 40501, message: expect.stringContaining('/plants/{id}') });
    expect(response.body).not.toContain('/plants/12');
  });

  it('answers an unknown path with 404 40401 in the Error body, not the framework default', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 40401, message: expect.any(String) });
  });
});
