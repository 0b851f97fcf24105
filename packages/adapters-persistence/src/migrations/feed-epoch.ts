import type { QueryRunner } from 'typeorm';

/**
 * PostgreSQL's feed positions are transaction ids (docs/decisions.md, "How the feed never skips a late commit"), which mean
 * something only in the cluster that handed them out. A database restored from a dump into
 * another cluster would hand out ids unrelated to the stored ones (lower ones: a follower's
 * cursor would pass over every change until they caught up). So at start-up, when the stored
 * positions come from another cluster, or any stored id of the current epoch is one the cluster
 * has not handed out yet, the feed opens a new epoch: every later change is placed after every
 * stored one, and the cursors followers hold stay valid. The column's default carries the
 * epoch, so no write pays a function call for it; ALTER TABLE waits for the transactions that
 * wrote with the old default, whose rows are final from then on.
 *
 * Run under the migration lock, after the migrations. Resolves with the epoch now current.
 */
export async function openFeedEpochIfMoved(runner: QueryRunner): Promise<bigint> {
  const [state] = (await runner.query(
    `SELECT CAST(feed.epoch AS TEXT) AS epoch, feed.cluster AS cluster,
      (SELECT CAST(max(plant.feed_xid) AS TEXT) FROM plant WHERE plant.feed_epoch = feed.epoch) AS highest,
      CAST(pg_snapshot_xmax(pg_current_snapshot()) AS TEXT) AS next
    FROM plant_feed AS feed WHERE feed.id = 1`,
  )) as Array<{ epoch: string; cluster: string | null; highest: string | null; next: string }>;
  const here = await clusterIdentifier(runner);
  if (state === undefined) throw new Error('plant_feed has no row: the feed migration did not run');
  const epoch = BigInt(state.epoch);
  const aheadOfTheCluster = state.highest !== null && BigInt(state.highest) >= BigInt(state.next);
  const moved = state.cluster !== null && here !== null && state.cluster !== here;
  if (!aheadOfTheCluster && !moved) {
    if (state.cluster === null && here !== null)
      await runner.query('UPDATE plant_feed SET cluster = $1 WHERE id = 1', [here]);
    return epoch;
  }
  const next = epoch + 1n;
  await runner.startTransaction();
  try {
    await runner.query('UPDATE plant_feed SET epoch = $1, cluster = $2 WHERE id = 1', [next.toString(), here]);
    // A bigint read back from the database: a literal, since ALTER TABLE takes no parameter.
    await runner.query(`ALTER TABLE plant ALTER COLUMN feed_epoch SET DEFAULT ${next.toString()}`);
    await runner.commitTransaction();
  } catch (error) {
    await runner.rollbackTransaction();
    throw error;
  }
  return next;
}

/**
 * The cluster's system identifier, made by initdb; null where the role may not read it (some
 * hosted services revoke pg_control_system): the stored ids ahead of the cluster's still tell.
 */
async function clusterIdentifier(runner: QueryRunner): Promise<string | null> {
  try {
    const [row] = (await runner.query(
      'SELECT CAST(system_identifier AS TEXT) AS here FROM pg_control_system()',
    )) as Array<{ here: string }>;
    return row?.here ?? null;
  } catch {
    return null;
  }
}
