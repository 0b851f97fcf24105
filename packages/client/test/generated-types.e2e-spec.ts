import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from '../../../test-support/repository-root.mjs';

/**
 * The client's types are generated from the OpenAPI document the built server serves
 * (packages/client/scripts/generate-types.mjs). A change of the document that is not
 * regenerated and committed fails here, naming the command that fixes it.
 */
const script = join(repositoryRoot, 'packages/client/scripts/generate-types.mjs');
const committed = join(repositoryRoot, 'packages/client/src/generated/openapi.ts');

describe('generated client types', () => {
  let fresh: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-client-types-'));
    try {
      await new Promise<void>((done, fail) =>
        execFile(
          process.execPath,
          [script, '--out', join(dir, 'openapi.ts')],
          { timeout: 60_000 },
          (error, _stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done()),
        ),
      );
      fresh = readFileSync(join(dir, 'openapi.ts'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('match a fresh generation from the served /openapi.json (else run: pnpm generate:client, and commit)', () => {
    expect(readFileSync(committed, 'utf8')).toBe(fresh);
  });

  it('type int64 ids as bigint | string, never number', () => {
    const newPlant = /NewPlant: \{([\s\S]*?)\n {8}\};/.exec(fresh)?.[1] ?? '';
    expect(newPlant).toMatch(/\bid: bigint \| string;/);
    expect(fresh).not.toMatch(/\bid: number/);
  });
});
