import type { DataSource } from 'typeorm';
import type { TestEngine, TestStore } from '../engines.js';

export interface OpenStore {
  readonly store: TestStore;
  readonly dataSource: DataSource;
}

/**
 * Gives the enclosing describe a fresh store of `engine`, open for all its tests and
 * destroyed and removed after them. Call at describe level; use the getter inside tests.
 */
export function useFreshStore(engine: TestEngine): () => OpenStore {
  let open: OpenStore | undefined;
  let store: TestStore | undefined;
  beforeAll(async () => {
    store = await engine.createStore();
    open = { store, dataSource: await store.open() };
  });
  afterAll(async () => {
    await open?.dataSource.destroy();
    await store?.remove();
  });
  return () => {
    if (open === undefined) throw new Error(`the ${engine.name} store did not open (see the beforeAll failure)`);
    return open;
  };
}
