// Plants stored ahead of a scenario that uses them up (bench/change-scenario.mjs: each DELETE
// needs a live plant of its own): `count` plants with ids first, first + 1, …, written as
// NDJSON and stored by the real CLI, `plantstore plants import`, as an operator would load
// them; many times faster than creating them over HTTP, and the server's CPU is not read meanwhile.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createWriteStream, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tail, track } from './processes.mjs';
import { ROOT } from './settings.mjs';

/** Stores the plants with the CLI of the checkout at `root`; resolves to the CLI's JSON summary, rejects when any line was not imported. */
export async function importPlants({ databaseUrl, first, count, dir, node = process.execPath, root = ROOT }) {
  const file = join(dir, `seed-${first}.ndjson`);
  await writePlants(file, BigInt(first), count);
  const errPath = `${file}.err`;
  const errFd = openSync(errPath, 'w');
  const child = track(
    spawn(node, [join(root, 'apps/cli/dist/main.js'), 'plants', 'import', file, '--json'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', errFd],
    }),
    'seed',
  );
  closeSync(errFd);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const { code, signal } = await child.exited;
  rmSync(file, { force: true });
  if (code !== 0) throw new Error(`seeding ${count} plants failed (${signal ?? code}): ${tail(errPath)}`);
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

export async function writePlants(path, first, count) {
  const out = createWriteStream(path);
  let text = '';
  for (let i = 0n; i < BigInt(count); i++) {
    text += `{"id":${first + i},"name":"Seeded plant","tag":"bench"}\n`;
    if (text.length > 1 << 20) {
      if (!out.write(text)) await once(out, 'drain');
      text = '';
    }
  }
  out.end(text);
  await once(out, 'finish');
}
