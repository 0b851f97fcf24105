// Where the benches keep what they measured: one dated Markdown file per run under
// bench/results/, named by the day and the machine (e.g. 2026-11-23-2c-amd-epyc-7b13.md),
// so figures are never edited into prose and a run never overwrites another.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** A short name for this machine: its core count and the first words of its CPU model. */
export function shortMachineName() {
  // The machine's cores, not this process's share (the bench pins itself to one).
  const cores = os.cpus().length;
  const model = (os.cpus()[0]?.model ?? 'unknown cpu')
    .replace(/\((R|TM)\)|@.*$|\bCPU\b|\bProcessor\b|\b\d+-Core\b/gi, ' ')
    .toLowerCase()
    .split(/[^a-z0-9.]+/)
    .filter((word) => word !== '' && word !== '.')
    .slice(0, 3);
  return [`${cores}c`, ...model].join('-').replaceAll('.', '');
}

/** The BENCH_* and DATABASE_URL settings of this run, as a shell prefix (passwords hidden). */
export function settingsLine() {
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_') || name === 'DATABASE_URL')
    .map(([name, value]) => `${name}=${name === 'DATABASE_URL' ? value.replace(/:[^:@/]*@/, ':***@') : value}`)
    .sort();
  return settings.length === 0 ? '(defaults)' : settings.join(' ');
}

/**
 * Writes `markdown` to bench/results/<date>-<machine>[-<variant>].md (-2, -3… when that day's
 * file exists) and returns its path.
 */
export function writeResult(title, markdown, variant = '') {
  const now = new Date();
  const stem = [now.toISOString().slice(0, 10), shortMachineName(), variant].filter(Boolean).join('-');
  mkdirSync(RESULTS_DIR, { recursive: true });
  let path = `${RESULTS_DIR}${stem}.md`;
  for (let n = 2; existsSync(path); n++) path = `${RESULTS_DIR}${stem}-${n}.md`;
  const header = [
    `# ${title}, ${now.toISOString().slice(0, 10)}`,
    '',
    `Measured ${now.toISOString()} on ${os.cpus()[0]?.model?.trim() ?? 'an unknown CPU'} (${shortMachineName()}), Node ${process.version}; settings: ${settingsLine()}.`,
    '',
  ];
  writeFileSync(path, `${header.join('\n')}\n${markdown.trim()}\n`);
  return path;
}
