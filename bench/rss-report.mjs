// The report's section on memory per start mode: each of the project's servers (as `node
// apps/api/dist/main.js`, through `pnpm start`, on another Node) with how it was started, the
// Node and MALLOC_ARENA_MAX it ran with (read from /proc), its RSS at rest, and its peak RSS
// over every measured run it served, split into the process's private memory and the pages of
// mapped files (the node binary's, which the project does not decide), against the targets.
import { fmt } from './report.mjs';

export const PEAK_RSS_TARGET_MB = 200;
export const PEAK_PRIVATE_TARGET_MB = 100;

/** The run with the highest peak RSS among `runs`, or undefined. */
export function peakOf(runs) {
  return runs.reduce((worst, r) => ((r.peakRssMb ?? 0) > (worst?.peakRssMb ?? 0) ? r : worst), undefined);
}

const met = (value, target) => (value === undefined ? '—' : value <= target ? 'met' : '**NOT met**');

/** The markdown section; `changes` are the project's list, PUT and DELETE runs, if any. */
export function rssReport({ targets, runs, changes }) {
  const servers = targets.filter((target) => target.started);
  if (servers.length === 0) return '';
  const out = [
    '',
    '### Peak RSS per start mode',
    '',
    `- VmRSS sampled every 100 ms during every measured run of the server (creates; on \`project\` also lists, PUTs and DELETEs), split at its peak by /proc/<pid>/smaps_rollup: private = anonymous pages (V8's heap, malloc, stacks), file = mapped files' pages (the node binary's); the bench sets no MALLOC_ARENA_MAX for these servers (only the shell's, when it has one)`,
    '',
    `| server | started as | Node | MALLOC_ARENA_MAX it runs with | RSS at rest MB | peak RSS MB | private MB | file MB | RSS ≤ ${PEAK_RSS_TARGET_MB} MB | private ≤ ${PEAK_PRIVATE_TARGET_MB} MB |`,
    '|---|---|---|---|---:|---:|---:|---:|---|---|',
  ];
  for (const target of servers) {
    const own = runs.filter((r) => r.target === target.name);
    const routes = target.name === 'project' ? (changes?.runs ?? []) : [];
    const peak = peakOf([...own, ...routes]);
    const { nodeVersion, mallocArenaMax } = target.started;
    out.push(
      `| ${target.label} | ${target.startedAs} | ${nodeVersion} | ${mallocArenaMax ?? 'unset'} | ${fmt(target.idleRssMb, 1)} | ${fmt(peak?.peakRssMb, 1)} | ${fmt(peak?.peakPrivateMb, 1)} | ${fmt(peak?.peakRssFileMb, 1)} | ${met(peak?.peakRssMb, PEAK_RSS_TARGET_MB)} | ${met(peak?.peakPrivateMb, PEAK_PRIVATE_TARGET_MB)} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
