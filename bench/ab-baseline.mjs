// The baseline of `pnpm bench --against <ref>`: that commit checked out in a temporary git
// worktree outside the repository, installed and built as a user would (`pnpm install
// --frozen-lockfile --prefer-offline`, `pnpm run build`), and removed when the run ends, also
// on failure or Ctrl-C (cleanup.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { undoAtEnd } from './cleanup.mjs';
import { ROOT } from './settings.mjs';

/** bench/README.md names the last commit of the previous release; `--against` alone means it. */
export function previousRelease() {
  const readme = readFileSync(join(ROOT, 'bench/README.md'), 'utf8');
  const commit = /^Previous release: `([0-9a-f]{7,40})`/m.exec(readme)?.[1];
  if (!commit) throw new Error('bench/README.md names no "Previous release: `<commit>`"');
  return commit;
}

const git = (...args) => spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' });

/** `ref` as a full commit and its one-line description; throws when git does not know it. */
export function resolveRef(ref) {
  const commit = git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`).stdout.trim();
  if (!commit) throw new Error(`bench: --against ${ref}: no such commit in this repository`);
  return { ref, commit, subject: git('log', '-1', '--format=%h %s', commit).stdout.trim() };
}

/** Checks `commit` out in a temporary worktree, installs and builds it; the checkout's root. */
export function buildBaseline(commit, log) {
  const root = mkdtempSync(join(os.tmpdir(), 'plantstore-baseline-'));
  const added = git('worktree', 'add', '--detach', '--force', root, commit);
  if (added.status !== 0) throw new Error(`git worktree add failed: ${added.stderr.trim()}`);
  undoAtEnd(() => {
    const removed = git('worktree', 'remove', '--force', root);
    if (removed.status !== 0) throw new Error(`could not remove the worktree ${root}: ${removed.stderr.trim()}`);
  });
  const startedAt = Date.now();
  for (const args of [
    ['install', '--frozen-lockfile', '--prefer-offline'],
    ['run', 'build'],
  ]) {
    log(`baseline ${commit.slice(0, 7)}: pnpm ${args.join(' ')}`);
    const result = spawnSync('pnpm', args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
      timeout: 600_000,
    });
    if (result.status !== 0)
      throw new Error(`baseline pnpm ${args[0]} failed:\n${`${result.stdout}\n${result.stderr}`.trim().slice(-2000)}`);
  }
  if (!existsSync(join(root, 'apps/api/dist/main.js'))) throw new Error(`baseline build made no apps/api/dist/main.js`);
  return { root, node: nodeOf(root), buildS: (Date.now() - startedAt) / 1000 };
}

/** The Node a checkout runs on: its own (package.json's optional node binary; not pnpm's shim, a shell), else this one. */
function nodeOf(root) {
  const own = join(root, `node_modules/node-${process.platform}-${process.arch}/bin/node`);
  return existsSync(own) ? own : process.execPath;
}
