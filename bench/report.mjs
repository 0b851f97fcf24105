// The markdown report of `pnpm bench` (bench/run.mjs): per server and connection count, the
// medians over the interleaved rounds, the sums of what must be zero, the worst RSS, the
// durable-200 check of every run, and the project ÷ baseline ratios.

export const fmt = (n, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n)
    ? '—'
    : Number(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const sum = (values) => values.reduce((a, b) => a + b, 0);

/**
 * Each 200 is a committed row and ids are unique, so a run must add at least as many rows as
 * it got 2xx. Requests in flight when autocannon stops are dropped unanswered but may still
 * commit: up to one extra row per connection is expected.
 */
function rowCheck(run) {
  if (Number.isNaN(run.newRows)) return { ok: true, extra: 0 }; // the stack floor stores nothing
  const extra = run.newRows - run.ok2xx;
  return { ok: extra >= 0 && extra <= run.connections, extra };
}

/** The figures of one server at one connection count, over its rounds. */
function aggregate(runs) {
  const ok = runs.filter((r) => !r.failed);
  const rates = ok.map((r) => r.reqPerSec);
  return {
    rounds: runs.length,
    failed: runs.length - ok.length,
    reqPerSec: median(rates),
    reqPerSecMin: Math.min(...rates),
    reqPerSecMax: Math.max(...rates),
    p50: median(ok.map((r) => r.latencyMs.p50)),
    p99: median(ok.map((r) => r.latencyMs.p99)),
    p99_9: median(ok.map((r) => r.latencyMs.p99_9)),
    cpuUsPer2xx: median(ok.map((r) => (r.ok2xx > 0 ? r.cpuUs / r.ok2xx : Number.NaN))),
    non2xx: sum(ok.map((r) => r.non2xx)),
    errors: sum(ok.map((r) => r.errors)),
    timeouts: sum(ok.map((r) => r.timeouts)),
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb ?? 0)),
    // The file-backed part of that peak: page-cache pages of mapped files, chiefly the node binary's.
    peakRssFileMb: runs.reduce(
      (worst, r) => ((r.peakRssMb ?? 0) > worst.total ? { total: r.peakRssMb, file: r.peakRssFileMb } : worst),
      { total: 0, file: 0 },
    ).file,
    rowsOk: ok.filter((r) => rowCheck(r).ok).length,
    ok2xx: sum(ok.map((r) => r.ok2xx)),
    newRows: sum(ok.map((r) => r.newRows)),
  };
}

function ratioLine(connections, project, other, label) {
  if (!project || !other || !(other.reqPerSec > 0)) return `- project ÷ ${label} at ${connections} connections: n/a`;
  const rate = (project.reqPerSec / other.reqPerSec).toFixed(2);
  const cpu =
    project.cpuUsPer2xx > 0 && other.cpuUsPer2xx > 0
      ? `, CPU per 2xx **${(project.cpuUsPer2xx / other.cpuUsPer2xx).toFixed(2)} ×**`
      : '';
  return `- project ÷ ${label} at ${connections} connections: req/s **${rate} ×**${cpu}`;
}

export function report({ runs, targets, connectionCounts, environment }) {
  const out = ['', `## Plant Store bench — ${environment.engine}`, ''];
  for (const line of environment.lines) out.push(`- ${line}`);
  out.push('');
  out.push(
    '| server | conns | req/s median (min – max) | p50 ms | p99 ms | p99.9 ms | server CPU µs per 2xx | non-2xx | errors (timeouts) | server peak RSS MB | every 200 has its row |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  const figures = new Map();
  for (const connections of connectionCounts) {
    for (const target of targets) {
      const mine = runs.filter((r) => r.target === target.name && r.connections === connections);
      if (mine.length === 0) continue;
      const a = aggregate(mine);
      figures.set(`${target.name}@${connections}`, a);
      const failed = a.failed ? `, ${a.failed}/${a.rounds} failed` : '';
      if (a.failed === a.rounds) {
        out.push(
          `| ${target.label} | ${connections} | failed | | | | | | | ${a.peakRssMb ? fmt(a.peakRssMb, 1) : ''} | |`,
        );
        continue;
      }
      const okRuns = a.rounds - a.failed;
      out.push(
        `| ${target.label} | ${connections} | ${fmt(a.reqPerSec)} (${fmt(a.reqPerSecMin)} – ${fmt(a.reqPerSecMax)}) | ${fmt(a.p50)} | ${fmt(a.p99)} | ${fmt(a.p99_9)} | ${fmt(a.cpuUsPer2xx, 1)} | ${fmt(a.non2xx)} | ${fmt(a.errors)} (${fmt(a.timeouts)}) | ${fmt(a.peakRssMb, 1)} (file ${fmt(a.peakRssFileMb, 1)}) | ${Number.isNaN(a.newRows) ? 'n/a, stores nothing' : `${a.rowsOk === okRuns ? 'yes' : '**NO**'}, ${a.rowsOk}/${okRuns} runs`}${failed} |`,
      );
    }
  }
  out.push('');
  const names = new Set(targets.map((t) => t.name));
  if (names.has('project')) {
    for (const connections of connectionCounts) {
      const project = figures.get(`project@${connections}`);
      for (const target of targets.filter((t) => t.name !== 'project'))
        out.push(ratioLine(connections, project, figures.get(`${target.name}@${connections}`), target.label));
    }
  }
  if (environment.relayFloor) out.push(...relayFloorLines(environment.relayFloor, connectionCounts, figures));
  for (const connections of connectionCounts) {
    const backlogs = runs.filter((r) => r.connections === connections && r.outboxBacklog !== undefined);
    if (backlogs.length)
      out.push(
        `- relay backlog at ${connections} connections, events still in the outbox when each measured run's load stopped: ${backlogs.map((r) => fmt(r.outboxBacklog)).join(', ')} (of ${backlogs.map((r) => fmt(r.ok2xx)).join(', ')} creates)`,
      );
  }
  const idle = targets.filter((t) => t.idleRssMb !== undefined).map((t) => `${t.label} ${fmt(t.idleRssMb, 1)} MB`);
  if (idle.length) out.push(`- server RSS at rest after start-up (before the first warm-up): ${idle.join(', ')}`);

  out.push('');
  out.push(
    'Durable-200 check (rows added to `plant` during each measured run ≥ its 2xx, and at most one extra per connection for requests cut off at the end):',
  );
  const label = (name) => targets.find((t) => t.name === name)?.label ?? name;
  for (const [key, a] of figures) {
    const [name, connections] = key.split('@');
    if (Number.isNaN(a.newRows)) continue; // the stack floor stores nothing
    out.push(
      `- ${label(name)} @ ${connections}: ${fmt(a.ok2xx)} 2xx, ${fmt(a.newRows)} new rows over ${a.rounds} run(s)`,
    );
  }
  for (const run of runs.filter((r) => !r.failed && !rowCheck(r).ok))
    out.push(
      `- MISMATCH ${label(run.target)} @ ${run.connections}, round ${run.round}: ${fmt(run.ok2xx)} 2xx but ${fmt(run.newRows)} new rows`,
    );
  for (const run of runs.filter((r) => !r.failed && (r.non2xx > 0 || r.errors > 0)))
    out.push(
      `- ${label(run.target)} @ ${run.connections}, round ${run.round} status codes: ${JSON.stringify(run.statusCodes)}, resets ${run.resets}`,
    );
  const failed = runs.filter((r) => r.failed);
  if (failed.length) {
    out.push('', 'Failures:');
    for (const run of failed)
      out.push(
        `- ${label(run.target)} @ ${run.connections}, round ${run.round}: ${run.failed.split('\n').join('\n  ')}`,
      );
  }
  out.push('');
  return out.join('\n');
}

/** The relay's floor, part by part, beside relay off's CPU per create. */
function relayFloorLines({ clientUs, triggerUs, relayUs }, connectionCounts, figures) {
  const parts = [`JetStream's client alone ${fmt(clientUs, 1)} µs per event (bench/relay-floor.mjs)`];
  if (Number.isFinite(triggerUs))
    parts.push(
      `the outbox row ${fmt(triggerUs, 1)} µs and its read, serialisation and delete ${fmt(relayUs, 1)} µs (bench/outbox-cost.mjs)`,
    );
  const floorUs = [clientUs, triggerUs, relayUs].filter(Number.isFinite).reduce((a, b) => a + b, 0);
  const lines = [`- relay floor, CPU per create: ${parts.join('; ')}`];
  for (const connections of connectionCounts) {
    const off = figures.get(`quiet@${connections}`);
    if (off?.cpuUsPer2xx > 0)
      lines.push(
        `- relay floor ÷ relay off at ${connections} connections: **${(floorUs / off.cpuUsPer2xx).toFixed(2)} ×** its CPU per 2xx (the least these parts add; the relay adds the ratio above minus 1)`,
      );
  }
  return lines;
}
