import { plantChangeFeedContract } from '@plantstore/domain/testing';
import type { DataSource } from 'typeorm';
import { testEngines } from '../engines.js';
import { feedSettled } from '../../../../test-support/feed-settled.js';
import { feedingStore } from '../support/feeding-store.js';
import { clearStore } from '../support/rows.js';
import { useFreshStore } from '../support/use-store.js';

// The domain's feed contract, on each engine: the same checks the in-memory store passes.
describe.each(testEngines())('SqlPlantFeed holds to the PlantChangeFeed contract on $name', (engine) => {
  const open = useFreshStore(engine);
  const reopened: DataSource[] = [];
  afterEach(async () => {
    for (const dataSource of reopened.splice(0)) await dataSource.destroy();
  });
  const checks = plantChangeFeedContract({
    empty: async () => {
      await clearStore(open().dataSource);
      return feedingStore(open().dataSource);
    },
    // Another data source on the same database, opened as a restarted server opens it.
    reopen: async () => {
      const dataSource = await open().store.open();
      reopened.push(dataSource);
      return feedingStore(dataSource);
    },
    settled: () => feedSettled(feedingStore(open().dataSource).feed),
  });
  for (const check of checks) it(check.name, check.run);
});
