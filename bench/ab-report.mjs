// The report of `pnpm bench --against`: per scenario, candidate ÷ baseline of the CPU per
// request and of the throughput, as the ratio of the best repetitions, of the medians, and the
// spread of the per-repetition ratios (each candidate slice against the baseline's slice beside
// it); a REGRESSION where the candidate is worse by more than 5 % beyond that spread. Then the
// relay's cost and the stack floor (both builds), and memory per start mode.
import { fmt, median } from './report.mjs';
import { PEAK_PRIVATE_TARGET_MB } from './rss-report.mjs';

export const REGRESSION_MARGIN = 0.05;
export const RELAY_TARGET = 1.25;
export const FLOOR_TARGET = 1.2;

const LABELS = {
  create: 'POST /plants',
  get: 'GET /plants/{id}',
  list: 'GET /plants?limit=50',
  put: 'PUT /plants/{id}',
  delete: 'DELETE /plants/{id}',
  import: '`plants import`',
};

/** x ÷ y over the repetitions both ran: best ÷ best, median ÷ median, and the half-range of the per-repetition ratios. */
export function compare(xs, ys, key, lowerIsBetter, margin = REGRESSION_MARGIN) {
  if (!xs || !ys) return undefined; // a server that never completed a slice
  const reps = [...xs.keys()].filter((rep) => ys.has(rep));
  const x = reps.map((rep) => xs.get(rep)[key]);
  const y = reps.map((rep) => ys.get(rep)[key]);
  if (reps.length === 0) return undefined;
  const best = (values) => {
    const finite = values.filter(Number.isFinite); // a slice without a 2xx has no cost per request
    return lowerIsBetter ? Math.min(...finite) : Math.max(...finite);
  };
  const paired = reps.map((_, i) => x[i] / y[i]).filter(Number.isFinite);
  const ratio = median(x) / median(y);
  const spread = (Math.max(...paired) - Math.min(...paired)) / 2;
  // How much worse, as a factor less one either way: 0.05 is 5 % more CPU or 1/1.05 of the rate.
  const worse = lowerIsBetter ? ratio - 1 : 1 / ratio - 1;
  return {
    reps: reps.length,
    x: median(x),
    y: median(y),
    best: best(x) / best(y),
    ratio,
    spread,
    regression: worse > margin + spread,
  };
}

/** Slices of one group by target name, each a Map rep → slice (failed slices left out). */
function byTarget(slices) {
  const map = new Map();
  for (const s of slices.filter((s) => !s.failed)) {
    if (!map.has(s.target)) map.set(s.target, new Map());
    map.get(s.target).set(s.rep, s);
  }
  return map;
}

const ratioCell = (c) => (c ? `${c.ratio.toFixed(2)} × (best ${c.best.toFixed(2)}, ±${c.spread.toFixed(2)})` : '—');

/** Every comparison of the run: { groups, rows }; rows carry the verdicts. */
export function comparisons(engines, margin = REGRESSION_MARGIN) {
  const rows = [];
  const groups = [];
  for (const { engine, slices } of engines) {
    const keys = [...new Set(slices.filter((s) => s.scenario).map((s) => `${s.scenario}@${s.connections}`))];
    for (const key of keys) {
      const [scenario, connections] = key.split('@');
      const group = byTarget(slices.filter((s) => s.scenario === scenario && String(s.connections) === connections));
      groups.push({ engine, scenario, connections: Number(connections), group });
      const pairs = [['cand', 'base', '']];
      if (group.has('cand_relay')) pairs.push(['cand_relay', 'base_relay', ', relay on']);
      if (group.has('cand_start')) pairs.push(['cand_start', 'base_start', ', `pnpm start`']);
      for (const [a, b, note] of pairs) {
        if (!group.has(a)) continue;
        const cpu = group.has(b) ? compare(group.get(a), group.get(b), 'cpuUsPerRequest', true, margin) : undefined;
        const rate = group.has(b) ? compare(group.get(a), group.get(b), 'reqPerSec', false, margin) : undefined;
        const candidate = median([...group.get(a).values()].map((s) => s.cpuUsPerRequest));
        rows.push({ engine, scenario, connections: Number(connections), note, cpu, rate, candidate });
      }
    }
  }
  return { groups, rows };
}

export function abReport({ header, engines, margin = REGRESSION_MARGIN }) {
  const { groups, rows } = comparisons(engines, margin);
  const out = ['', '## Candidate ÷ baseline', '', ...header.map((line) => `- ${line}`), ''];
  out.push(
    '| scenario | engine | conns | CPU µs per request, candidate (baseline) | CPU ratio: median (best, ± spread) | throughput ratio: median (best, ± spread) | verdict |',
  );
  out.push('|---|---|---:|---:|---:|---:|---|');
  for (const r of rows) {
    const verdict = !r.cpu
      ? 'baseline has no such route'
      : r.cpu.regression || r.rate.regression
        ? '**REGRESSION**'
        : 'within the spread';
    const conns = r.scenario === 'import' ? '—' : r.connections;
    out.push(
      `| ${LABELS[r.scenario]}${r.note} | ${r.engine} | ${conns} | ${fmt(r.candidate, 1)} (${fmt(r.cpu?.y, 1)}) | ${ratioCell(r.cpu)} | ${ratioCell(r.rate)} | ${verdict} |`,
    );
  }
  out.push(
    '',
    `A ratio over 1 is more CPU per request (worse) or more requests per second (better); a REGRESSION is a median ratio worse than 1 by more than ${Math.round(margin * 100)} % plus the spread.`,
    '',
  );
  out.push(...relayAndFloorLines(groups));
  out.push(...memoryLines(groups));
  const failed = engines.flatMap(({ engine, slices }) =>
    slices
      .filter((s) => s.failed)
      .map(
        (s) =>
          `- ${engine}, ${s.scenario ?? 'setup'} ${s.target} rep ${s.rep ?? '—'}: ${s.failed.split('\n').join(' ').slice(0, 600)}`,
      ),
  );
  if (failed.length) out.push('', 'Failures:', ...failed);
  return { markdown: out.join('\n'), rows };
}

/** The relay on ÷ off, and the project ÷ the stack floor, per build, in the tmpfs creates at 128 connections. */
function relayAndFloorLines(groups) {
  const loop = groups.find((g) => g.engine === 'tmpfs' && g.scenario === 'create' && g.connections === 128);
  if (!loop) return [];
  const out = [];
  const line = (a, b, what, target) => {
    const c = compare(loop.group.get(a), loop.group.get(b), 'cpuUsPerRequest', true);
    if (!c) return;
    const verdict = c.ratio <= target ? 'met' : '**NOT met**';
    out.push(
      `- ${what}: CPU per create **${c.ratio.toFixed(2)} ×** (best ${c.best.toFixed(2)}, ±${c.spread.toFixed(2)}; ${fmt(c.x, 1)} against ${fmt(c.y, 1)} µs); target ≤ ${target}: ${verdict}`,
    );
  };
  for (const [build, name] of [
    ['cand', 'candidate'],
    ['base', 'baseline'],
  ]) {
    if (loop.group.has(`${build}_relay`))
      line(`${build}_relay`, build, `relay on ÷ relay off, ${name}, tmpfs, 128 connections`, RELAY_TARGET);
  }
  if (loop.group.has('floor'))
    for (const [build, name] of [
      ['cand', 'candidate'],
      ['base', 'baseline'],
    ])
      line(build, 'floor', `${name} ÷ stack floor, tmpfs, 128 connections`, FLOOR_TARGET);
  return out.length ? ['', ...out, ''] : [];
}

/** Peak RSS of each server over its create slices, split into private and file pages. */
function memoryLines(groups) {
  const peaks = new Map();
  for (const { engine, scenario, group } of groups) {
    if (engine !== 'tmpfs' || scenario !== 'create') continue;
    for (const [name, reps] of group)
      for (const s of reps.values())
        if (s.peakMb && s.peakMb.total > (peaks.get(name)?.total ?? 0)) peaks.set(name, s.peakMb);
  }
  if (peaks.size === 0) return [];
  const names = {
    cand: 'candidate, `node apps/api/dist/main.js`',
    base: 'baseline, `node apps/api/dist/main.js`',
    cand_start: 'candidate, `pnpm start`',
    base_start: 'baseline, `pnpm start`',
    cand_relay: 'candidate, relay on',
    base_relay: 'baseline, relay on',
    floor: 'stack floor',
  };
  const out = [
    '',
    '### Peak memory under the creates (tmpfs, 16 and 128 connections)',
    '',
    `/proc/<pid>/smaps_rollup at the highest VmRSS sampled (every 100 ms): private = anonymous pages (V8's heap, malloc, stacks); file = mapped files' pages (the node binary, addons), which the page cache shares. Target: the candidate's private memory ≤ ${PEAK_PRIVATE_TARGET_MB} MB.`,
    '',
    '| server | peak RSS MB | private MB | file MB |',
    '|---|---:|---:|---:|',
  ];
  for (const [name, peak] of peaks)
    out.push(
      `| ${names[name] ?? name} | ${fmt(peak.total, 1)} | ${fmt(peak.private, 1)}${name.startsWith('cand') ? (peak.private <= PEAK_PRIVATE_TARGET_MB ? ' (met)' : ' (**NOT met**)') : ''} | ${fmt(peak.file, 1)} |`,
    );
  return [...out, ''];
}

/**
 * The comparisons the CI smoke fails on: marked a regression with the margin `factor` - 1 (the
 * median worse than `factor` times plus the spread) and the best repetitions worse than `factor` too.
 */
export function beyondFactor(rows, factor) {
  return rows.filter(
    (r) => (r.cpu?.regression && r.cpu.best > factor) || (r.rate?.regression && r.rate.best < 1 / factor),
  );
}
