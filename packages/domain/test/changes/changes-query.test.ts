import { ChangeCursor, ChangesQuery, MAX_CURSOR_LENGTH, type ChangesQueryInput } from '@plantstore/domain';

const CURSOR_RULE = (name: string) =>
  `${name} must be a cursor this store handed out (an opaque text of at most ${MAX_CURSOR_LENGTH} characters, unaltered)`;
const LIMIT_RULE = 'limit must be a whole number from 1 to 1000 in canonical decimal form (no sign, no leading zero)';

function parsed(input: ChangesQueryInput): ChangesQuery {
  const result = ChangesQuery.parse(input);
  if (!result.ok) throw new Error(`expected a valid query, got ${JSON.stringify(result.violations)}`);
  return result.query;
}

function violationsOf(input: ChangesQueryInput): unknown {
  const result = ChangesQuery.parse(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.violations;
}

describe('a change feed query', () => {
  it('defaults to the beginning and 100 entries, named after', () => {
    const query = parsed({});
    expect([query.after, query.limit, query.afterName]).toEqual([undefined, 100, 'after']);
    expect([ChangesQuery.DEFAULT_LIMIT, ChangesQuery.MAX_LIMIT]).toEqual([100, 1000]);
  });

  it('reads the position of a cursor and a limit from 1 to 1000', () => {
    const position = { epoch: 2n, commit: 77n, id: -3n };
    const query = parsed({ after: ChangeCursor.encode(position), limit: '1000' });
    expect([query.after, query.limit]).toEqual([position, 1000]);
    expect(parsed({ limit: '1' }).limit).toBe(1);
  });

  it.each(['0', '1001', '01', '+5', '-1', '1.0', '1e2', ' 5', '', 'ten', '99999'])('refuses limit %p', (limit) => {
    expect(violationsOf({ limit })).toEqual([{ field: 'limit', message: LIMIT_RULE }]);
  });

  it('refuses a cursor it did not write, under the name the transport gives it', () => {
    expect(violationsOf({ after: 'nope' })).toEqual([{ field: 'after', message: CURSOR_RULE('after') }]);
    expect(violationsOf({ after: 'nope', afterName: 'Last-Event-ID' })).toEqual([
      { field: 'Last-Event-ID', message: CURSOR_RULE('Last-Event-ID') },
    ]);
  });

  it('reports both violations at once, the cursor first', () => {
    expect(violationsOf({ after: `${ChangeCursor.origin}x`, limit: '0' })).toEqual([
      { field: 'after', message: CURSOR_RULE('after') },
      { field: 'limit', message: LIMIT_RULE },
    ]);
  });
});
