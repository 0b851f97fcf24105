import { readFileSync } from 'node:fs';
import { markdownTable } from '../../../../test-support/markdown-tables.js';
import { ERROR_CATALOGUE, ErrorCode, statusOf } from '../../src/errors/error-codes.js';

const errorsMd = new URL('../../../../docs/errors.md', import.meta.url);

describe('the error catalogue', () => {
  it('describes every code once, in ascending order', () => {
    const codes = ERROR_CATALOGUE.map((entry) => entry.code);
    expect(codes).toEqual(Object.values(ErrorCode).sort((a, b) => a - b));
  });

  it('is the table of docs/errors.md, row for row: a code added, removed or reworded in one is in both', () => {
    const documented = markdownTable(readFileSync(errorsMd, 'utf8'), 'Catalogue');
    const expected = ERROR_CATALOGUE.map(({ code, when }) => [String(statusOf(code)), String(code), when]);
    // On a difference, the message is the table to paste into docs/errors.md (or the code to fix).
    expect(documented.map((row) => `| ${row.join(' | ')} |`).join('\n')).toBe(
      expected.map((row) => `| ${row.join(' | ')} |`).join('\n'),
    );
  });
});
