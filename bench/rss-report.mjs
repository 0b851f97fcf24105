// The report's section on memory per start mode: each of the project's servers (as `node
// apps/api/dist/main.js`, through `pnpm start`, on another Node) with how it was started, the
// Node and MALLOC_ARENA_MAX it ran with (read from /proc), its RSS at rest, and its peak RSS
// over every measured run it served, against the 200 MB target.
import { fmt } from './report.mjs';

export const PEAK_RSS_TARGET_MB = 200;

/** The markdown section; `changes` are the project's list, PUT and DELETE runs, if any. */
export function rssReport({ targets, runs, changes }) {
  const servers = targets.filter((target) => target.started);
  if (servers.length === 0) return '';
  const out = [
    '',
    '### Peak RSS per start mode',
    '',
    `- VmRSS sampled every 100 ms during every measured run of the server (creates; on \`project\` also lists, PUTs and DELETEs); the bench sets no MALLOC_ARENA_MAX for these servers (only the shell's, when it has one)`,
    '',
    `| server | started as | Node | MALLOC_ARENA_MAX it runs with | RSS at rest MB | peak RSS MB | ≤ ${PEAK_RSS_TARGET_MB} MB |`,
    '|---|---|---|---|---:|---:|---|',
  ];
  for (const target of servers) {
    const own = runs.filter((r) => r.target === target.name);
    const routes = target.name === 'project' ? (changes?.runs ?? []) : [];
    const peak = Math.max(0, ...[...own, ...routes].map((r) => r.peakRssMb ?? 0));
    const { nodeVersion, mallocArenaMax } = target.started;
    out.push(
      `| ${target.label} | ${target.startedAs} | ${nodeVersion} | ${mallocArenaMax ?? 'unset'} | ${fmt(target.idleRssMb, 1)} | ${peak > 0 ? fmt(peak, 1) : '—'} | ${peak === 0 ? '—' : peak <= PEAK_RSS_TARGET_MB ? 'met' : '**NOT met**'} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
