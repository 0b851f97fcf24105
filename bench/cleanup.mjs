// Everything a `pnpm bench` run makes is removed when it ends: its children, its temp
// directories and its PostgreSQL databases, also on failure, Ctrl-C or the overall time limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopAllChildren } from './processes.mjs';

const tempDirs = new Set();
/** The PostgreSQL databases made for this run, each with its drop. */
const pgDatabases = new Set();
/** Other things to undo at the end (a temporary git worktree), last made first undone. */
const undos = [];
let cleaningUp = null;

/** `undo` runs when the run is cleaned up, after the children have stopped. */
export function undoAtEnd(undo) {
  undos.unshift(undo);
}

/** A new temp directory under `parent`, removed at the end of the run. */
export function tempDirUnder(parent) {
  const dir = mkdtempSync(join(parent, 'plantstore-bench-'));
  tempDirs.add(dir);
  return dir;
}

/** A database from test-support/postgres.mjs, dropped at the end of the run. */
export function dropAtEnd(database) {
  pgDatabases.add(database);
  return database;
}

/** Whether the run is being cleaned up (a signal or the time limit): no new work starts. */
export const isCleaningUp = () => cleaningUp !== null;

export async function cleanup() {
  if (cleaningUp) return cleaningUp;
  cleaningUp = (async () => {
    await stopAllChildren();
    for (const database of pgDatabases) {
      try {
        await database.drop();
        pgDatabases.delete(database);
      } catch (error) {
        console.error(`bench: could not drop database ${database.name}: ${error.message}`);
      }
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    for (const undo of undos) {
      try {
        await undo();
      } catch (error) {
        console.error(`bench: ${error.message}`);
      }
    }
  })();
  return cleaningUp;
}

/** Cleans up on SIGINT, SIGTERM and SIGHUP, and after `limitMs`; returns what cancels the time limit. */
export function cleanUpOnSignalsAndTimeLimit(limitMs) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      console.error(`\nbench: ${signal}, cleaning up`);
      cleanup().finally(() => process.exit(130));
    });
  }
  const overallTimer = setTimeout(() => {
    console.error(`bench: overall time limit (${Math.round(limitMs / 1000)} s) reached, cleaning up`);
    cleanup().finally(() => process.exit(1));
  }, limitMs);
  return () => clearTimeout(overallTimer);
}
