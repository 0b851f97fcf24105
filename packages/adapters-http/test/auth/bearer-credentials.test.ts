import { readBearerCredentials } from '../../src/auth/bearer-credentials.js';

/** A request with these Authorization headers, as Node hands it over: the first in `headers`, all in `rawHeaders`. */
function requestWith(...values: string[]) {
  return {
    headers: { authorization: values[0] },
    rawHeaders: values.flatMap((value) => ['Authorization', value]),
  };
}

// The one reading of the Authorization header, the bearer strategy's.
describe('readBearerCredentials', () => {
  it.each([
    ['Bearer pst_abc', 'pst_abc'],
    ['bearer pst_abc', 'pst_abc'],
    ['BEARER pst_abc', 'pst_abc'],
    ['Bearer   pst_abc', 'pst_abc'],
    ['Bearer\tpst_abc\t ', 'pst_abc'],
  ])('reads %j as a well-formed bearer credential', (header, token) => {
    expect(readBearerCredentials(requestWith(header))).toEqual({ kind: 'token', token });
  });

  it.each(['Bearer pst_abc extra', 'Bearer a\u00a0b c', 'Bearer\u00a0pst_abc'])(
    'reads %j as a credential presented but malformed (40102, error="invalid_token")',
    (header) => {
      expect(readBearerCredentials(requestWith(header))).toEqual({ kind: 'malformed' });
    },
  );

  it.each(['', 'Bearer', 'Bearer   ', 'Basic dXNlcjpwYXNz', 'Bearerpst_abc'])(
    'reads %j as no bearer credential (40101, no error attribute)',
    (header) => {
      expect(readBearerCredentials(requestWith(header))).toEqual({ kind: 'missing' });
    },
  );

  it('reads no header as no bearer credential', () => {
    expect(readBearerCredentials({ headers: {}, rawHeaders: [] })).toEqual({ kind: 'missing' });
  });

  it('reads two Authorization headers as repeated, whatever they hold', () => {
    expect(readBearerCredentials(requestWith('Bearer a', 'Bearer b'))).toEqual({ kind: 'repeated' });
    expect(readBearerCredentials(requestWith('Bearer a', 'Basic b'))).toEqual({ kind: 'repeated' });
  });
});
