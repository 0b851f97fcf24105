import { compareFeedPositions, type FeedPosition, type PositionedFeedEntry } from '@plantstore/domain';
import type {
  InsertOutcome,
  Plant,
  PlantBatchRepository,
  PlantId,
  PlantPageRequest,
  PlantProvenance,
  PlantRepository,
  StoredApiToken,
} from '@plantstore/domain';
import {
  ContractViolation,
  InMemoryPlantRepository,
  InMemoryTokenRepository,
  plantBatchRepositoryContract,
  plantChangeFeedContract,
  plantReaderContract,
  plantRepositoryContract,
  tokenRepositoryContract,
  type ContractCheck,
} from '@plantstore/domain/testing';

/** The contract suites catch the mistakes they exist for: each broken store below fails its check. */
async function failureOf(checks: ContractCheck[], name: string): Promise<unknown> {
  const check = checks.find((c) => c.name.startsWith(name));
  if (check === undefined) throw new Error(`no check named ${name}`);
  return check.run().then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** The mistake the port warns about: a Map keyed by the PlantId object, not by its value. */
class KeyedByPlantIdObject implements PlantRepository {
  private readonly rows = new Map<PlantId, Plant>();
  async insertIfAbsent(plant: Plant): Promise<InsertOutcome> {
    const existing = this.rows.get(plant.id);
    if (existing !== undefined) return { inserted: false, existing };
    this.rows.set(plant.id, plant);
    return { inserted: true };
  }
}

/** Pages sorted by the id's text, as a store with a text column would. */
class SortedAsText extends InMemoryPlantRepository implements PlantBatchRepository {
  override async listAfter(after: PlantId | undefined, limit: number): Promise<Plant[]> {
    const all = await super.listAfter(undefined, Number.MAX_SAFE_INTEGER);
    return all
      .sort((a, b) => (a.id.toString() < b.id.toString() ? -1 : 1))
      .filter((p) => after === undefined || p.id.toString() > after.toString())
      .slice(0, limit);
  }
}

/** Finds names by lower case alone, as a naive LIKE would: ß never finds SS, nor e an è. */
class LowerCaseOnlyNames extends InMemoryPlantRepository {
  override async listPage(request: PlantPageRequest): Promise<Plant[]> {
    const all = await super.listPage({ ...request, name: undefined, limit: Number.MAX_SAFE_INTEGER });
    const text = request.name?.value.toLowerCase();
    return all.filter((p) => text === undefined || p.name.value.toLowerCase().includes(text)).slice(0, request.limit);
  }
}

/** Writes the first plant of a batch before it looks at the provenance: not atomic. */
class HalfWritesRefusedBatches extends InMemoryPlantRepository {
  override async insertAllIfAbsent(plants: readonly Plant[], provenance: PlantProvenance): Promise<InsertOutcome[]> {
    if (provenance.createdByTokenId === 'no-such-token') {
      await super.insertAllIfAbsent(plants.slice(0, 1), { ...provenance, createdByTokenId: undefined });
      throw new Error('foreign key violation');
    }
    return super.insertAllIfAbsent(plants, provenance);
  }
}

/** Positions by plant id, as a feed keyed on the table's primary key would: a late change hides behind the cursor. */
class FeedOrderedById extends InMemoryPlantRepository {
  override async readAfter(after: FeedPosition, limit: number): Promise<readonly PositionedFeedEntry[]> {
    const all = await super.readAfter({ epoch: 0n, commit: 0n, id: 0n }, Number.MAX_SAFE_INTEGER);
    return all
      .map(({ entry, position }) => ({ entry, position: { ...position, commit: 0n } }))
      .sort((a, b) => compareFeedPositions(a.position, b.position))
      .filter(({ position }) => compareFeedPositions(position, after) > 0)
      .slice(0, limit);
  }
}

/** Its newest position is its newest row's: it falls when that plant moves on and is not servable yet. */
class NewestByLastServable extends InMemoryPlantRepository {
  private served: FeedPosition | undefined;
  override async readAfter(after: FeedPosition, limit: number): Promise<readonly PositionedFeedEntry[]> {
    const page = await super.readAfter(after, limit);
    this.served = page.at(-1)?.position ?? this.served;
    return page.filter((entry) => this.served === undefined || compareFeedPositions(entry.position, this.served) <= 0);
  }
  override async newestPosition(): Promise<FeedPosition | undefined> {
    const all = await super.readAfter({ epoch: 0n, commit: 0n, id: 0n }, Number.MAX_SAFE_INTEGER);
    // The plants at the two newest positions are not servable yet, as rows of a transaction still open would be.
    return all.at(-3)?.position;
  }
}

/** Its newest position is a bound past the next commit: a change committed later can land below it. */
class NewestAboveNextCommit extends InMemoryPlantRepository {
  override async newestPosition(): Promise<FeedPosition | undefined> {
    const newest = await super.newestPosition();
    return newest === undefined ? undefined : { ...newest, commit: newest.commit + 1n };
  }
}

/** Overwrites the revocation time, and lists hashes. */
class CarelessTokens extends InMemoryTokenRepository {
  override async revoke(id: string, at: Date): Promise<boolean> {
    const row = this.rawRows().find((token) => token.id === id);
    if (row === undefined) return false;
    Object.assign(row, { revokedAt: at });
    return true;
  }

  override async list(): Promise<StoredApiToken[]> {
    return this.rawRows().sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }
}

describe('the port contract suites', () => {
  it('fail a plant store keyed by the PlantId object, where ids of equal value must be one plant', async () => {
    const checks = plantRepositoryContract({ empty: async () => new KeyedByPlantIdObject() });
    const failure = await failureOf(checks, "identifies a plant by its id's value");
    expect(failure).toBeInstanceOf(ContractViolation);
    expect((failure as Error).message).toMatch(/^insert of id written 1e2: expected .*"existing".*, got "inserted"$/);
    expect(await failureOf(checks, 'a second insert with another name reports the stored plant')).toBeInstanceOf(
      ContractViolation,
    );
  });

  it('fail a batch store that pages by the text of the ids', async () => {
    const failure = await failureOf(
      plantBatchRepositoryContract({ empty: async () => new SortedAsText() }),
      'lists pages ascending by id value',
    );
    expect((failure as Error).message).toMatch(/^first page of 4: expected \["-9223372036854775808","-10","-1","0"\]/);
  });

  it('fail a batch store that keeps part of a batch it refused, when the subject names a refused provenance', async () => {
    const refusedProvenance = { createdByTokenId: 'no-such-token', createdAt: new Date() };
    const checks = plantBatchRepositoryContract({
      empty: async () => new HalfWritesRefusedBatches(),
      refusedProvenance,
    });
    const failure = await failureOf(checks, 'stores none of the plants of a batch it refuses');
    expect((failure as Error).message).toMatch(
      /^plants listed after the refused batch: expected \[\], got \[\{"id":"1"/,
    );
    // Without a refused provenance the check is not offered: an in-memory store has nothing to refuse.
    expect(
      plantBatchRepositoryContract({ empty: async () => new HalfWritesRefusedBatches() }).map((c) => c.name),
    ).not.toContain('stores none of the plants of a batch it refuses');
  });

  it('fail a reader that finds names by lower case alone, not by their folded, unaccented form', async () => {
    const failure = await failureOf(
      plantReaderContract({ empty: async () => new LowerCaseOnlyNames() }),
      'finds plants whose name contains a text',
    );
    expect(failure).toBeInstanceOf(ContractViolation);
    expect((failure as Error).message).toBe('fougere: expected ["1","10"], got ["10"]');
  });

  it('fail a token store that overwrites the revocation time or lists hashes', async () => {
    const checks = tokenRepositoryContract({ empty: async () => new CarelessTokens() });
    expect(await failureOf(checks, 'revokes a known token at the given time')).toBeInstanceOf(ContractViolation);
    expect(await failureOf(checks, 'keeps the first time when two revocations race')).toBeInstanceOf(ContractViolation);
    expect(((await failureOf(checks, 'lists tokens oldest first')) as Error).message).toMatch(
      /^the tokens listed: expected/,
    );
  });

  it('fail a change feed ordered by plant id, where a change after a read must come after its positions', async () => {
    const checks = plantChangeFeedContract({ empty: async () => new FeedOrderedById() });
    expect(((await failureOf(checks, 'places a change committed after a read')) as Error).message).toMatch(
      /^plants changed after the read, read from its last position: expected \["1","5","9"\], got \[\]/,
    );
  });

  it('fail a change feed whose newest position falls below a cursor it handed out', async () => {
    const checks = plantChangeFeedContract({ empty: async () => new NewestByLastServable() });
    expect(((await failureOf(checks, 'places a change committed after a read')) as Error).message).toMatch(
      /^newestPosition .* fell below .*, a position already answered$/,
    );
  });

  it('fail a change feed whose newest position is a bound a later commit lands below, so following from it misses that commit', async () => {
    const checks = plantChangeFeedContract({ empty: async () => new NewestAboveNextCommit() });
    expect(((await failureOf(checks, 'places every change committed after newestPosition')) as Error).message).toMatch(
      /^plant 9, changed after newestPosition .*, was not read from it \(read: 5, 1, 9223372036854775807\)$/,
    );
  });

  it('pass the in-memory stores (every check, by name)', async () => {
    const names = [
      ...plantRepositoryContract({ empty: async () => new InMemoryPlantRepository() }),
      ...plantBatchRepositoryContract({ empty: async () => new InMemoryPlantRepository() }),
      ...tokenRepositoryContract({ empty: async () => new InMemoryTokenRepository() }),
      ...plantChangeFeedContract({ empty: async () => new InMemoryPlantRepository() }),
    ].map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(30);
  });
});
