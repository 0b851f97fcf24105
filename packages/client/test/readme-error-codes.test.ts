import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownTable } from '../../../test-support/markdown-tables.js';
import { DEFAULT_RETRY, retryDelayMs } from '../src/retry-policy.js';

/**
 * The client's README lists every code of the API's error catalogue (docs/errors.md), each
 * under its status, and says truly which of them the client retries.
 */
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const catalogue = markdownTable(readFileSync(join(packageDir, '../../docs/errors.md'), 'utf8'), 'Catalogue');
const listed = markdownTable(readFileSync(join(packageDir, 'README.md'), 'utf8'), 'Error codes');

it("lists every code of the API's catalogue", () => {
  const catalogueCodes = catalogue.map(([, code]) => code);
  const listedCodes = listed.map(([code]) => code);
  expect(catalogueCodes.length).toBeGreaterThan(20);
  expect(catalogueCodes.filter((code) => !listedCodes.includes(code))).toEqual([]);
});

it('lists each code once, in order, under the status its first three digits name', () => {
  const codes = listed.map(([code]) => code!);
  expect(new Set(codes).size).toBe(codes.length);
  expect([...codes].sort()).toEqual(codes);
  for (const [code, status] of listed) expect({ code, status }).toEqual({ code, status: code!.slice(0, 3) });
});

it('says "retries" exactly for the statuses the client retries', () => {
  for (const [code, status, , client] of listed) {
    const retried = retryDelayMs(
      { kind: 'status', status: Number(status), retryAfterMs: undefined },
      1,
      DEFAULT_RETRY,
      () => 0,
    );
    expect({ code, retried: client!.startsWith('retries') }).toEqual({ code, retried: retried !== undefined });
  }
});
