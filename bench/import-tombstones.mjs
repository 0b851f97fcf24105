// `pnpm bench:import` with BENCH_IMPORT_TOMBSTONES=N: the same generated plants imported into
// an empty store and into one holding N tombstones (bench/tombstoned-store.mjs; their ids
// between the imported ones, never equal to one), BENCH_IMPORT_ROUNDS rounds, the two stores'
// order alternating between rounds so that drift on the machine hits both alike. The rate is
// plants per second of the CLI's own `seconds`; the target: the tombstoned store's at least
// 0.9× the empty one's.
import { addTombstones } from './tombstoned-store.mjs';

export const TOMBSTONE_IMPORT_TARGET = 0.9;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const thousands = (n) => Math.round(n).toLocaleString('en-US');

/**
 * Runs the comparison; the markdown table and whether every count held. `io`: `freshDatabase(name)`,
 * `runImport(file, url)`, `count(url, where)` (plant rows), `discard(url)`, `generatedId(i)`.
 */
export async function compareWithTombstones({ file, plants, tombstones, rounds, io, log }) {
  // Just above an imported id: the generated ids are at least 2^64 / (plants + 1) apart.
  const tombstoneIds = Array.from({ length: tombstones }, (_, j) =>
    String(io.generatedId(j % plants) + 1n + BigInt(Math.floor(j / plants))),
  );
  const runs = [];
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? ['empty', 'tombstoned'] : ['tombstoned', 'empty'];
    for (const store of order) {
      const url = await io.freshDatabase(`${store}-${round}`);
      try {
        if (store === 'tombstoned') {
          log(`bench: round ${round}/${rounds}: deleting ${thousands(tombstones)} plants first…\n`);
          await addTombstones(url, tombstoneIds);
        }
        log(`bench: round ${round}/${rounds}: importing into the ${store} store…\n`);
        const { summary, peakMb } = await io.runImport(file, url);
        const live = await io.count(url, 'deleted_at IS NULL');
        const dead = await io.count(url, 'deleted_at IS NOT NULL');
        const expectedDead = store === 'tombstoned' ? tombstones : 0;
        runs.push({ round, store, summary, peakMb, ok: live === plants && dead === expectedDead, live, dead });
      } finally {
        await io.discard(url);
      }
    }
  }
  return { markdown: table(runs, tombstones), ok: runs.every((run) => run.ok) };
}

function table(runs, tombstones) {
  const rate = (run) => run.summary.lines / run.summary.seconds;
  const out = [
    '| round | store | imported | rejected | seconds | plants/s | peak RSS | rows afterwards (live, tombstones) |',
    '|---:|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const run of runs) {
    const { imported, conflicts, invalid, seconds } = run.summary;
    out.push(
      `| ${run.round} | ${run.store === 'empty' ? 'empty' : `${thousands(tombstones)} tombstones`} | ${thousands(imported)} | ${thousands(conflicts + invalid)} | ${seconds.toFixed(2)} | ${thousands(rate(run))} | ${run.peakMb.toFixed(0)} MB | ${thousands(run.live)}, ${thousands(run.dead)}${run.ok ? '' : ' (MISMATCH)'} |`,
    );
  }
  const empty = median(runs.filter((r) => r.store === 'empty').map(rate));
  const tombstoned = median(runs.filter((r) => r.store === 'tombstoned').map(rate));
  const ratio = tombstoned / empty;
  out.push(
    '',
    `- median plants/s: empty store ${thousands(empty)}, with ${thousands(tombstones)} tombstones ${thousands(tombstoned)}; ratio **${ratio.toFixed(2)} ×** (target ≥ ${TOMBSTONE_IMPORT_TARGET}: ${ratio >= TOMBSTONE_IMPORT_TARGET ? 'met' : 'NOT met'})`,
  );
  return out.join('\n');
}
