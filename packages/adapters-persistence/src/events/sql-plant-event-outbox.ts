import { Plant, PlantCreated, PlantDeleted, PlantId, PlantUpdated, type PlantEvent } from '@plantstore/domain';
import type { DataSource } from 'typeorm';
import { SqlRunner, type SqlRunnerOptions } from '../connection/sql-runner.js';

/** Hands events to a broker; resolves once the broker has acknowledged every one of them. */
export type PublishEvents = (events: readonly PlantEvent[]) => Promise<void>;

/** What turning PlantCreated events on or off did. */
export interface EventsSwitchOutcome {
  /** False when events already were in the state asked for. */
  readonly changed: boolean;
  /** On: plants stored before, which get no event. Off: events discarded from the outbox. */
  readonly plants: number;
}

export interface OutboxBacklog {
  /** Events stored and not yet acknowledged by the broker. */
  readonly events: number;
  /** Creation time of the oldest of them; undefined when there is none. */
  readonly oldestCreatedAt: Date | undefined;
}

interface OutboxRow {
  readonly seq: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly plant_id: string;
  readonly version: number | string;
  readonly name: string | null;
  readonly tag: string | null;
  readonly occurred_at: string | Date;
}

const SELECT_OLDEST = `SELECT CAST(seq AS TEXT) AS seq, CAST(event_id AS TEXT) AS event_id, event_type,
  CAST(plant_id AS TEXT) AS plant_id, version, name, tag, occurred_at
  FROM plant_outbox ORDER BY plant_outbox.seq LIMIT`;

/**
 * The plant events' outbox that the plant table's triggers fill, one row per committed create,
 * change or deletion, each with its event id and version (docs/storage.md#outbox). A
 * relay takes the oldest events, publishes them, and only once the broker acknowledged them
 * are they deleted; an event is published again after a crash in between, which the broker's
 * duplicate detection (the event id as message id) and the consumer's idempotence absorb.
 *
 * PostgreSQL: the batch is claimed with `FOR UPDATE SKIP LOCKED` in a transaction held over
 * the publish, so several instances each take other rows, and a relay that dies releases its
 * rows at once (the server rolls back on the lost connection). SQLite: one process owns the
 * file, so the rows are read, published and deleted in separate statements, none awaited
 * inside a transaction (docs/storage.md#one-writer).
 */
export class SqlPlantEventOutbox {
  private readonly statements: SqlRunner;

  constructor(
    private readonly dataSource: DataSource,
    options: SqlRunnerOptions = {},
  ) {
    this.statements = new SqlRunner(dataSource, options);
  }

  /** Publishes up to `limit` of the oldest events and deletes them; resolves with how many. */
  async relay(limit: number, publish: PublishEvents): Promise<number> {
    return this.statements.engine === 'postgres' ? this.relayClaimed(limit, publish) : this.relayOwned(limit, publish);
  }

  /** Whether the outbox trigger writes events (docs/storage.md#outbox); a new store starts with them off. */
  async eventsEnabled(): Promise<boolean> {
    const [row] = await this.query<{ enabled: boolean | number }>('SELECT enabled FROM plant_events WHERE id = 1', []);
    return Boolean(row?.enabled);
  }

  /** Events for every plant stored from now on; the plants stored before get none. */
  async enableEvents(): Promise<EventsSwitchOutcome> {
    if (await this.eventsEnabled()) return { changed: false, plants: 0 };
    await this.query('UPDATE plant_events SET enabled = TRUE WHERE id = 1', []);
    const [row] = await this.query<{ plants: string | number }>('SELECT COUNT(*) AS plants FROM plant', []);
    return { changed: true, plants: Number(row?.plants ?? 0) };
  }

  /**
   * No more events, and the ones not yet relayed are discarded. Two statements, switch first:
   * a crash in between leaves events off with some still stored, and running it again deletes them.
   */
  async disableEvents(): Promise<EventsSwitchOutcome> {
    const wasEnabled = await this.eventsEnabled();
    await this.query('UPDATE plant_events SET enabled = FALSE WHERE id = 1', []);
    const { events } = await this.backlog();
    await this.query('DELETE FROM plant_outbox', []);
    return { changed: wasEnabled, plants: events };
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.query<{ events: string | number; oldest: string | Date | null }>(
      'SELECT COUNT(*) AS events, MIN(occurred_at) AS oldest FROM plant_outbox',
      [],
    );
    return {
      events: Number(row?.events ?? 0),
      oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? undefined : new Date(row.oldest),
    };
  }

  private async relayOwned(limit: number, publish: PublishEvents): Promise<number> {
    const rows = await this.query<OutboxRow>(`${SELECT_OLDEST} ?`, [limit]);
    if (rows.length === 0) return 0;
    await publish(rows.map(toEvent));
    // The rows read are the outbox's oldest, and only this process writes the file: nothing at
    // or below the last one was added since, so one range, one statement prepared once.
    await this.query('DELETE FROM plant_outbox WHERE seq <= ?', [BigInt(rows.at(-1)!.seq)]);
    return rows.length;
  }

  private relayClaimed(limit: number, publish: PublishEvents): Promise<number> {
    return this.statements.call(async () => {
      const runner = this.dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        const rows = (await runner.query(`${SELECT_OLDEST} $1 FOR UPDATE SKIP LOCKED`, [limit])) as OutboxRow[];
        if (rows.length > 0) {
          await publish(rows.map(toEvent));
          await runner.query('DELETE FROM plant_outbox WHERE seq = ANY($1::bigint[])', [rows.map((row) => row.seq)]);
        }
        await runner.commitTransaction();
        return rows.length;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      } finally {
        await runner.release();
      }
    });
  }

  private query<Row>(sql: string, parameters: unknown[]): Promise<Row[]> {
    return this.statements.run({ sql, parameters });
  }
}

function toEvent(row: OutboxRow): PlantEvent {
  const id = PlantId.fromStored(row.plant_id);
  const at = new Date(row.occurred_at);
  if (row.event_type === PlantDeleted.TYPE) return PlantDeleted.of(row.event_id, id, Number(row.version), at);
  const plant = Plant.fromStored(id, row.name!, row.tag);
  if (row.event_type === PlantUpdated.TYPE) return PlantUpdated.of(row.event_id, plant, Number(row.version), at);
  return PlantCreated.of(row.event_id, plant, at);
}
