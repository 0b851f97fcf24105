// The report's section on the other routes (bench/change-scenario.mjs): per route and
// connection count, the medians over the rounds, the CPU per 2xx beside the create's of the
// same run, the 1.3× target on PUT and DELETE at 128 connections, and the durable check.
import { LIST_LIMIT, writtenCheck } from './change-scenario.mjs';
import { fmt, median } from './report.mjs';

export const CHANGE_CPU_TARGET = 1.3;
export const CHANGE_TARGET_CONNECTIONS = 128;

const LABELS = {
  list: `GET /plants?limit=${LIST_LIMIT}&after=…`,
  put: 'PUT /plants/{id}',
  delete: 'DELETE /plants/{id}',
};
const sum = (values) => values.reduce((a, b) => a + b, 0);
const cpuPer2xx = (runs) => median(runs.map((r) => (r.ok2xx > 0 ? r.cpuUs / r.ok2xx : Number.NaN)));

/** The markdown section; `createRuns` are the project's create runs of the same bench run. */
export function changeReport({ ids, seeded, runs }, createRuns) {
  const has = (route) => runs.some((r) => r.route === route);
  const out = [
    '',
    '### Lists, changes and deletes: project',
    '',
    `- ${[
      has('list') && `list pages of ${LIST_LIMIT} after each of ${fmt(ids)} stored ids in turn`,
      has('put') && `PUT a new name to ${fmt(ids)} stored ids in turn (no If-Match)`,
      has('delete') && `DELETE each of ${fmt(seeded)} plants stored for it (\`plantstore plants import\`) once`,
    ]
      .filter(Boolean)
      .join('; ')}`,
    "- ÷ create CPU: over the project's POST /plants in this run at the same connection count; a list's 2xx is a page",
    '- written: versions raised (PUT) or tombstones added (DELETE), counted by a separate connection: at least the 2xx, at most one more per connection',
    '',
    '| route | conns | req/s median (min – max) | p50 ms | p99 ms | server CPU µs per 2xx | ÷ create CPU | non-2xx | errors (timeouts) | every 2xx written |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const notes = [];
  for (const connections of [...new Set(runs.map((r) => r.connections))]) {
    const createCpu = cpuPer2xx(createRuns.filter((r) => !r.failed && r.connections === connections));
    for (const route of Object.keys(LABELS)) {
      const mine = runs.filter((r) => r.route === route && r.connections === connections);
      if (mine.length === 0) continue;
      const ok = mine.filter((r) => !r.failed);
      const rates = ok.map((r) => r.reqPerSec);
      const cpu = cpuPer2xx(ok);
      const ratio = cpu / createCpu;
      const written =
        route !== 'list'
          ? `${ok.every((r) => writtenCheck(r).ok) ? 'yes' : '**NO**'}, ${fmt(sum(ok.map((r) => r.written ?? 0)))} written for ${fmt(sum(ok.map((r) => r.ok2xx)))} 2xx`
          : 'n/a, reads';
      out.push(
        `| ${LABELS[route]} | ${connections} | ${ok.length ? `${fmt(median(rates))} (${fmt(Math.min(...rates))} – ${fmt(Math.max(...rates))})` : 'failed'} | ${fmt(median(ok.map((r) => r.latencyMs.p50)))} | ${fmt(median(ok.map((r) => r.latencyMs.p99)))} | ${fmt(cpu, 1)} | ${Number.isFinite(ratio) ? `${ratio.toFixed(2)} ×` : '—'} | ${fmt(sum(ok.map((r) => r.non2xx)))} | ${fmt(sum(ok.map((r) => r.errors)))} (${fmt(sum(ok.map((r) => r.timeouts)))}) | ${written} |`,
      );
      if (route !== 'list' && connections === CHANGE_TARGET_CONNECTIONS)
        notes.push(
          `- ${route.toUpperCase()} ÷ create CPU per 2xx at ${connections} connections: **${Number.isFinite(ratio) ? ratio.toFixed(2) : '—'} ×** (target ≤ ${CHANGE_CPU_TARGET}: ${ratio <= CHANGE_CPU_TARGET ? 'met' : 'NOT met'})`,
        );
      for (const run of ok.filter((r) => r.non2xx > 0 || r.errors > 0 || r.ranOutOfIds))
        notes.push(
          `- ${route} @ ${connections}, round ${run.round}: status codes ${JSON.stringify(run.statusCodes)}${run.ranOutOfIds ? ', ran out of seeded ids and stopped early' : ''}`,
        );
      for (const run of ok.filter((r) => !writtenCheck(r).ok))
        notes.push(
          `- MISMATCH ${route} @ ${connections}, round ${run.round}: ${fmt(run.ok2xx)} 2xx but ${fmt(run.written)} written`,
        );
      for (const run of mine.filter((r) => r.failed))
        notes.push(`- ${route} @ ${connections}, round ${run.round} failed: ${run.failed.split('\n').join('\n  ')}`);
    }
  }
  if (!runs.some((r) => r.connections === CHANGE_TARGET_CONNECTIONS))
    notes.push(`- the ${CHANGE_CPU_TARGET}× target is judged at ${CHANGE_TARGET_CONNECTIONS} connections: not run`);
  out.push('', ...notes, '');
  return out.join('\n');
}
