import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { repositoryRoot } from './repository-root.mjs';

/**
 * A workspace package as another team gets it, for tests: packed with `pnpm pack` into
 * `scratch`, unpacked, and its examples type-checked against the unpacked tarball.
 */
export interface PackedPackage {
  readonly name: string;
  readonly tarball: string;
  /** Where the tarball was unpacked (its `package/` directory). */
  readonly unpacked: string;
  /** Every file in the tarball, relative to `unpacked`, sorted. */
  readonly files: string[];
}

const tsc = join(repositoryRoot, 'node_modules/.bin/tsc');

export function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** Builds (a no-op after `pnpm build`), packs and unpacks the package in `packageDir`. */
export function packPackage(packageDir: string, scratch: string): PackedPackage {
  const destination = join(scratch, 'tarball');
  mkdirSync(destination, { recursive: true });
  run(tsc, ['-b', packageDir], repositoryRoot);
  run('pnpm', ['pack', '--pack-destination', destination], packageDir);
  const [file, ...others] = readdirSync(destination).filter((entry) => entry.endsWith('.tgz'));
  if (file === undefined || others.length > 0) throw new Error(`expected one tarball in ${destination}`);
  const tarball = join(destination, file);
  run('tar', ['-xzf', tarball, '-C', destination], destination);
  const unpacked = join(destination, 'package');
  const { name } = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { name: string };
  return { name, tarball, unpacked, files: filesUnder(unpacked) };
}

/** The ```ts blocks of a Markdown document, in order. */
export function typeScriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/**
 * Type-checks every ```ts block of `readme` as a module of its own in a new project under
 * `scratch` that depends on `packages` as installed from their tarballs (unpacked into its
 * node_modules: they have no dependencies) and on Node's types. Strict, as a careful team's
 * project is; a block declares what it assumes. Returns the number of blocks; throws with
 * tsc's report when one does not compile.
 */
export function typeCheckExamples(readme: string, packages: readonly PackedPackage[], scratch: string): number {
  const project = mkdtempSync(join(scratch, 'readme-examples-'));
  const blocks = typeScriptBlocks(readFileSync(readme, 'utf8'));
  mkdirSync(join(project, 'src'), { recursive: true });
  for (const pkg of packages) cpSync(pkg.unpacked, join(project, 'node_modules', pkg.name), { recursive: true });
  mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
  // The repository's own @types/node (its real path, so that its dependencies resolve).
  symlinkSync(
    realpathSync(resolve(repositoryRoot, 'node_modules/@types/node')),
    join(project, 'node_modules/@types/node'),
  );
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'readme-examples', private: true, type: 'module' }),
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ['src'],
    }),
  );
  blocks.forEach((block, index) => writeFileSync(join(project, 'src', `example-${index + 1}.ts`), block));
  const result = spawnSync(tsc, ['-p', project], { cwd: project, encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    const listing = blocks.map((block, index) => `--- src/example-${index + 1}.ts\n${block}`).join('\n');
    throw new Error(`README examples of ${readme} do not compile:\n${result.stdout}${result.stderr}\n${listing}`);
  }
  return blocks.length;
}
