// The "where the CPU goes" section of `pnpm bench` with BENCH_PROFILE=1: per connection count,
// the CPU per create of each part (bench/cpu-parts.mjs) for the project and the stack floor,
// and the project's excess over the floor; then the same parts for the project's reads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuParts, PART_NAMES, perRequest } from './cpu-parts.mjs';
import { fmt } from './report.mjs';

function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The one profile a server wrote into `dir` when it exited, parsed; undefined when there is none. */
export function readProfile(dir) {
  if (!existsSync(dir)) return undefined;
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  return file === undefined ? undefined : JSON.parse(readFileSync(join(dir, file), 'utf8'));
}

/** µs per 2xx of each part over `runs` (their measured windows), scaled to their median CPU per 2xx. */
function partsOf(profile, runs) {
  const ok = runs.filter((r) => !r.failed && r.window && r.ok2xx > 0);
  if (!profile || ok.length === 0) return undefined;
  const cpu = median(ok.map((r) => r.cpuUs / r.ok2xx));
  return {
    cpu,
    parts: perRequest(
      cpuParts(
        profile,
        ok.map((r) => r.window),
      ),
      cpu,
    ),
  };
}

export function cpuPartsReport({ profiles, runs, reads, connectionCounts }) {
  const out = [
    '',
    '### Where the CPU goes (BENCH_PROFILE=1)',
    '',
    "- each sample of the servers' CPU profiles (measured runs only) is charged to the innermost frame of a part on its stack (bench/cpu-parts.mjs); each part's share of the busy samples × the CPU per 2xx measured in the same runs",
    '- profiled servers run slower than unprofiled ones: read the shares and the differences, not the totals',
  ];
  for (const connections of connectionCounts) {
    const at = (name) =>
      partsOf(
        profiles[name],
        runs.filter((r) => r.target === name && r.connections === connections),
      );
    const project = at('project');
    // Beside the project: the stack floor, or the project with its relay off (BENCH_ONLY=…,quiet).
    const [otherName, other] = at('floor') ? ['stack floor', at('floor')] : ['relay off', at('quiet')];
    if (!project) continue;
    out.push(
      '',
      `#### POST /plants, ${connections} connections: µs of CPU per create`,
      '',
      `| part | project | ${other ? `${otherName} | project − ${otherName} |` : ''}`,
      `|---|---:|${other ? '---:|---:|' : ''}`,
    );
    for (const name of PART_NAMES) {
      const p = project.parts.get(name);
      const o = other?.parts.get(name);
      out.push(`| ${name} | ${fmt(p, 1)} | ${other ? `${fmt(o, 1)} | ${fmt(p - o, 1)} |` : ''}`);
    }
    out.push(
      `| **total** | **${fmt(project.cpu, 1)}** | ${other ? `**${fmt(other.cpu, 1)}** | **${fmt(project.cpu - other.cpu, 1)}** |` : ''}`,
    );
  }
  const read =
    reads &&
    partsOf(
      profiles.project,
      reads.runs.map((r) => ({ ...r, target: 'project' })),
    );
  if (read) {
    out.push(
      '',
      `#### GET /plants/{id}, ${reads.connections} connections: µs of CPU per read`,
      '',
      '| part | project |',
      '|---|---:|',
    );
    for (const name of PART_NAMES) out.push(`| ${name} | ${fmt(read.parts.get(name), 1)} |`);
    out.push(`| **total** | **${fmt(read.cpu, 1)}** |`);
  }
  return out.join('\n');
}
