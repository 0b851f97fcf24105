import { readBearerCredentials } from '../src/auth/bearer-credentials.js';

// The one reading of the Authorization header that the guard and the strategy share.
describe('readBearerCredentials', () => {
  it.each([
    ['Bearer pst_abc', 'pst_abc'],
    ['bearer pst_abc', 'pst_abc'],
    ['BEARER pst_abc', 'pst_abc'],
    ['Bearer   pst_abc', 'pst_abc'],
    ['Bearer\tpst_abc\t ', 'pst_abc'],
  ])('reads %j as a well-formed bearer credential', (header, token) => {
    expect(readBearerCredentials(header)).toEqual({ presented: true, token });
  });

  it.each(['Bearer pst_abc extra', 'Bearer a\u00a0b c', 'Bearer\u00a0pst_abc'])(
    'reads %j as a credential presented but malformed (40102, error="invalid_token")',
    (header) => {
      expect(readBearerCredentials(header)).toEqual({ presented: true, token: undefined });
    },
  );

  it.each([undefined, '', 'Bearer', 'Bearer   ', 'Basic dXNlcjpwYXNz', 'Bearerpst_abc', ['Bearer a', 'Bearer b']])(
    'reads %j as no bearer credential (40101, no error attribute)',
    (header) => {
      expect(readBearerCredentials(header)).toEqual({ presented: false });
    },
  );
});
