import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// dependency-cruiser does not see imports of workspace packages (they resolve into dist/, which
// it excludes), so this test keeps the test doubles out of production code instead.
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

function productionSources(): string[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(repositoryRoot, group)).flatMap((name) => {
      const src = join(repositoryRoot, group, name, 'src');
      try {
        return readdirSync(src, { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts'))
          .map((file) => join(src, file));
      } catch {
        return [];
      }
    }),
  );
}

describe('@plantstore/domain/testing', () => {
  it('is imported by no production source: test doubles and contract suites serve tests only', () => {
    const sources = productionSources().filter(
      (file) => !file.startsWith(join(repositoryRoot, 'packages/domain/src/testing/')),
    );
    expect(sources.length).toBeGreaterThan(50);
    const offenders = sources
      .filter((file) =>
        /from '(@plantstore\/domain\/testing|(\.\.?\/)+(\w+\/)*testing\/[^']*)'/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(repositoryRoot, file));
    expect(offenders).toEqual([]);
  });
});
