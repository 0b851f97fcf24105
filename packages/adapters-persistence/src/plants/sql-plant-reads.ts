import type { Plant, PlantId, PlantPageRequest, PlantState } from '@plantstore/domain';
import type { BatchTuning } from '../config/write-path-tuning.js';
import type { SqlRunner } from '../connection/sql-runner.js';
import { Batcher } from './batcher.js';
import { fulfilled, toPlant, toState } from './plant-rows.js';
import type { PlantSql, StoredPlantRow } from './plant-sql.js';

/**
 * Reads in SQL. Lookups by id batch as creates do: the lookups of one turn are one SELECT, so
 * a busy reader pays TypeORM's per-query cost once per turn rather than once per request. Each
 * page is one statement, read at one moment.
 */
export class SqlPlantReads {
  private readonly lookups: Batcher<PlantId, PlantState | undefined>;

  constructor(
    private readonly statements: SqlRunner,
    private readonly sql: PlantSql,
    tuning: BatchTuning,
  ) {
    this.lookups = new Batcher((ids) => this.statesOf(ids), tuning);
  }

  stateOf(id: PlantId): Promise<PlantState | undefined> {
    return this.lookups.submit(id);
  }

  async findById(id: PlantId): Promise<Plant | undefined> {
    const state = await this.lookups.submit(id);
    return state?.live === true ? state.plant : undefined;
  }

  /** Live plants only; one statement per page, so a walk by the last id misses nothing that lived through it. */
  async listPage({ after, tags, name, limit }: PlantPageRequest): Promise<Plant[]> {
    const texts = tags.map((tag) => tag.value);
    return (await this.statements.run<StoredPlantRow>(this.sql.selectPage(after, limit, texts, name))).map(toPlant);
  }

  /** One statement for a turn's lookups; an id asked for twice is read once. */
  private async statesOf(ids: readonly PlantId[]): Promise<Array<PromiseFulfilledResult<PlantState | undefined>>> {
    const distinct = new Map(ids.map((id) => [id.toString(), id]));
    const rows = await this.statements.run<StoredPlantRow>(this.sql.selectByIds([...distinct.values()]));
    const found = new Map(rows.map((row) => [row.id, toState(row)]));
    return ids.map((id) => fulfilled(found.get(id.toString())));
  }
}
