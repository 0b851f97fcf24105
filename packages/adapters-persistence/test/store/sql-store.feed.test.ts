import { SqlPlantFeed, SqlStore } from '@plantstore/adapters-persistence';
import { ChangesQuery, FollowChanges } from '@plantstore/domain';
import { testEngines, type TestStore } from '../engines.js';
import { feedSettled } from '../../../../test-support/feed-settled.js';
import { validPlant } from '../support/valid-inputs.js';

// What an app wires: the store's feed behind FollowChanges, and its lag for a metric.
describe.each(testEngines())('SqlStore on $name gives the change feed and its lag', (engine) => {
  let testStore: TestStore;
  let store: SqlStore;
  beforeAll(async () => {
    testStore = await engine.createStore();
    store = await SqlStore.open(testStore.config());
  });
  afterAll(async () => {
    await store?.close();
    await testStore?.remove();
  });

  it('follows a create and a deletion made through the same store, with no lag once they are served', async () => {
    const fern = validPlant({ id: '12', name: 'Fern' });
    await store.plants.insertIfAbsent(fern, { createdByTokenId: undefined, createdAt: new Date() });
    await store.plants.retire(fern.id, 1, { retiredAt: new Date(), retiredByTokenId: undefined });
    await feedSettled(new SqlPlantFeed(store.dataSource));
    const query = ChangesQuery.parse({});
    if (!query.ok) throw new Error('an empty query is valid');
    const page = await new FollowChanges(store.feed).execute(query.query);
    expect(page.outcome === 'page' && page.changes.map(({ entry }) => entry)).toEqual([
      { deleted: true, id: fern.id, version: 2 },
    ]);
    expect(await store.feedLag()).toEqual({ changes: 0, oldestChangedAt: undefined });
  });
});
