import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreNetworkError,
  PlantStoreUnexpectedResponseError,
} from '@plantstore/client';

/** Which token problem a refusal was: the person acts differently on each. */
export type TokenProblem = 'missing' | 'refused' | 'lacks-scope';

/** A failure as the page tells it: one sentence, and the token problem when it was one. */
export interface FailureText {
  /** What happened, for a person: the catalogue's message when the server sent one, never a status or a stack. */
  readonly message: string;
  readonly tokenProblem?: TokenProblem;
}

// The catalogue's codes for the token (docs/errors.md); the message comes with the answer.
const TOKEN_PROBLEMS: ReadonlyMap<number, TokenProblem> = new Map([
  [40101, 'missing'],
  [40102, 'refused'],
  [40301, 'lacks-scope'],
]);

/** Every failure the client reports, told as one sentence; anything else is a fault of the page. */
export function describeFailure(error: unknown): FailureText {
  if (error instanceof PlantStoreApiError) {
    const tokenProblem = TOKEN_PROBLEMS.get(error.code);
    return tokenProblem === undefined ? { message: error.message } : { message: error.message, tokenProblem };
  }
  if (error instanceof PlantStoreDeadlineError)
    return error.cause instanceof PlantStoreApiError
      ? describeFailure(error.cause)
      : { message: 'The Plant Store server did not answer in time; try again in a moment.' };
  if (error instanceof PlantStoreNetworkError)
    return { message: 'The Plant Store server could not be reached; check the connection and try again.' };
  if (error instanceof PlantStoreUnexpectedResponseError)
    return {
      message:
        'The answer did not come from the Plant Store API (a proxy in between may have failed); try again later.',
    };
  return { message: 'Something went wrong in this page; reload it and try again.' };
}

/** The headline over a token problem's message: which of the three it is. */
export const TOKEN_PROBLEM_HEADLINES: Readonly<Record<TokenProblem, string>> = {
  missing: 'No token was sent.',
  refused: 'Your token was refused.',
  'lacks-scope': 'Your token may not do this.',
};
