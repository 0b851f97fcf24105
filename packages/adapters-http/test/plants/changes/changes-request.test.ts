import { ChangeCursor, PlantQueryError } from '@plantstore/domain';
import { ApiError } from '../../../src/errors/api-error.js';
import { changesQueryOf, wantsEventStream } from '../../../src/plants/changes/changes-request.js';

describe('what a request to GET /plants/changes asks for', () => {
  it.each([
    ['text/event-stream', true],
    ['text/event-stream; charset=utf-8', true],
    ['application/json, TEXT/EVENT-STREAM;q=0.5', true],
    ['text/event-stream;q=0', false],
    ['application/json', false],
    ['*/*', false],
    [undefined, false],
  ])('Accept %s asks for the stream: %s', (accept, stream) => {
    expect(wantsEventStream(accept)).toBe(stream);
  });

  it('takes Last-Event-ID over after, and names it when it is refused', () => {
    const cursor = ChangeCursor.encode({ epoch: 0n, commit: 7n, id: 3n });
    expect(changesQueryOf({ after: ChangeCursor.origin }, cursor).after).toEqual({ epoch: 0n, commit: 7n, id: 3n });
    expect(changesQueryOf({ after: cursor }, '').after).toEqual({ epoch: 0n, commit: 7n, id: 3n });
    expect(() => changesQueryOf({ after: cursor }, 'forged')).toThrow(
      expect.objectContaining({ violations: [expect.objectContaining({ field: 'Last-Event-ID' })] }) as Error,
    );
    expect(() => changesQueryOf({}, 'forged')).toThrow(PlantQueryError);
  });

  it('never repeats a parameter name that could be a pasted token', () => {
    let refused: unknown;
    try {
      changesQueryOf({ pst_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG: '1' }, undefined);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).failure.message).toBe(
      'The request parameters are invalid: a parameter is not a query parameter of this operation (known: after, limit).',
    );
  });
});
