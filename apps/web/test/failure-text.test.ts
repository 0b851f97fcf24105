import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreGoneError,
  PlantStoreNetworkError,
  PlantStorePreconditionFailedError,
  PlantStoreUnexpectedResponseError,
} from '@plantstore/client';
import { describeFailure } from '../src/failure-text.js';

const REFUSED = 'The bearer token is malformed, unknown, expired or revoked; ask an administrator for a valid token.';

describe('a failure as the page tells it', () => {
  it("is the catalogue's message for an Error body", () => {
    const conflict = 'A plant with id 7 already exists with a different name or tag; choose another id.';
    expect(describeFailure(new PlantStoreApiError(409, 40901, conflict, undefined))).toEqual({ message: conflict });
  });

  it.each([
    [401, 40101, 'missing'],
    [401, 40102, 'refused'],
    [403, 40301, 'lacks-scope'],
  ] as const)('names the token problem of %i %i: %s', (status, code, problem) => {
    expect(describeFailure(new PlantStoreApiError(status, code, REFUSED, undefined))).toEqual({
      message: REFUSED,
      tokenProblem: problem,
    });
  });

  it("tells a deleted plant as its state, in the catalogue's words", () => {
    const deleted = 'The plant with id 42 was deleted.';
    expect(describeFailure(new PlantStoreGoneError(410, 41001, deleted, undefined))).toEqual({
      message: deleted,
      plantState: 'deleted',
    });
  });

  it('tells a plant changed since it was read as that, to a person: no If-Match, no ETag, no status', () => {
    const ifMatch = 'The plant with id 42 is no longer the one If-Match names; read it again (its ETag), then decide.';
    const { message, plantState } = describeFailure(
      new PlantStorePreconditionFailedError(412, 41201, ifMatch, undefined),
    );
    expect(plantState).toBe('changed');
    expect(message).toMatch(/^Someone else changed this plant .*\.$/);
    expect(message).not.toMatch(/If-Match|ETag|412/i);
  });

  it("is the last answer's message when the deadline passed after one", () => {
    const busy = new PlantStoreApiError(503, 50301, 'The plant store is temporarily unavailable; retry shortly.', 1);
    expect(describeFailure(new PlantStoreDeadlineError('the deadline passed', 1, 10, { cause: busy }))).toEqual({
      message: busy.message,
    });
  });

  it.each([
    new PlantStoreDeadlineError('the deadline passed after 0 attempt(s)', 0, 0),
    new PlantStoreNetworkError('GET http://127.0.0.1:3000/plants: the connection failed'),
    new PlantStoreUnexpectedResponseError(502, '<html>Bad Gateway</html>'),
    new TypeError("Cannot read properties of undefined (reading 'x')"),
  ])('is a sentence without a status, an address or a stack for %s', (error) => {
    const { message, tokenProblem } = describeFailure(error);
    expect(tokenProblem).toBeUndefined();
    expect(message).toMatch(/^[A-Z][^\n]*[.;] ?[^\n]*\.$/);
    expect(message).not.toMatch(/[0-9]{3}|https?:|<html|undefined|\bat \S+ \(/i);
  });
});
