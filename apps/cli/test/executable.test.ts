import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const cliPackage = JSON.parse(readFileSync(resolve(repoRoot, 'apps/cli/package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

/** pnpm as the test runner was started with (`pnpm test` sets npm_execpath), else the one on PATH. */
function pnpm(args: readonly string[]) {
  const execPath = process.env['npm_execpath'];
  const [command, commandArgs] = execPath?.includes('pnpm')
    ? [process.execPath, [execPath, ...args]]
    : ['pnpm', [...args]];
  const result = spawnSync(command, commandArgs, { cwd: repoRoot, encoding: 'utf8', timeout: 50_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the plantstore executable', () => {
  it('runs from the repository root as `pnpm exec plantstore`, printing only its own output', () => {
    expect(pnpm(['exec', 'plantstore', '--version'])).toEqual({
      status: 0,
      stdout: `${cliPackage.version}\n`,
      stderr: '',
    });
  });

  it('passes usage errors through as exit 2 with the CLI message alone', () => {
    const run = pnpm(['exec', 'plantstore', 'frob']);

    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("plantstore: unknown command 'frob'\nRun 'plantstore --help' to see the commands.\n");
  });

  // pnpm links bins at install time, before `pnpm build`: a bin under dist/ would be missing in a fresh clone.
  it('is a bin of the CLI package that exists before the build: an executable node script outside dist/', () => {
    const bin = cliPackage.bin['plantstore'] ?? '';
    const file = resolve(repoRoot, 'apps/cli', bin);

    expect(bin).not.toMatch(/dist\//);
    expect(() => accessSync(file, constants.X_OK)).not.toThrow();
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });
});
