import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable } from '../../../test-support/markdown-tables.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { repositoryRoot } from '../src/repository-root.js';

/**
 * docs/operations.md's configuration table held to the code that reads the environment
 * (src/config.ts): the same variables, and each documented default is the one in force.
 */
const operationsMd = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
const rows = markdownTable(operationsMd, 'Configuration').map(([variables = '', defaultCell = '']) => ({
  names: [...variables.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!),
  defaultCell,
}));
const documented = rows.flatMap((row) => row.names);

/** Every variable loadConfig looks at, found by handing it an environment that records reads. */
function variablesRead(): string[] {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get: (_target, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  loadConfig(env);
  return [...read];
}

describe('docs/operations.md, Configuration', () => {
  it('lists exactly the variables the server reads', () => {
    expect([...documented].sort()).toEqual(variablesRead().sort());
  });

  it.each(rows.filter((row) => row.names.length === 1).map((row) => [row.names[0]!, row.defaultCell]))(
    '%s: the documented default (%s) is the one in force',
    (name, defaultCell) => {
      const value =
        name === 'DATABASE_URL'
          ? `sqlite:${join(repositoryRoot, defaultCell.match(/`([^`]+)`/)![1]!)}`
          : /^unset\b/.test(defaultCell)
            ? ''
            : defaultCell.match(/^`([^`]+)`/)?.[1];
      expect(value).toBeDefined();
      expect(loadConfig({ [name]: value })).toEqual(loadConfig({}));
    },
  );

  it.each(documented.filter((name) => name !== 'HOST'))(
    '%s: a value it cannot use stops the start, naming it',
    (name) => {
      let failure: unknown;
      try {
        loadConfig({ [name]: 'not a valid value' });
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(ConfigError);
      expect((failure as Error).message).toContain(name);
    },
  );
});
