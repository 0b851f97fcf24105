import {
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreGoneError,
  PlantStoreNetworkError,
  PlantStorePreconditionFailedError,
  PlantStoreUnexpectedResponseError,
} from '@plantstore/client';

/** Which token problem a refusal was: the person acts differently on each. */
export type TokenProblem = 'missing' | 'refused' | 'lacks-scope';

/**
 * A refusal that tells where the plant is now, not that something broke: it was deleted (410),
 * or it changed since the page read it (412). The page shows each as a state of the plant.
 */
export type PlantState = 'deleted' | 'changed';

/** A failure as the page tells it: one sentence, and the token problem or the plant's state when it was one. */
export interface FailureText {
  /** What happened, for a person: the catalogue's message when the server sent one, never a status or a stack. */
  readonly message: string;
  readonly tokenProblem?: TokenProblem;
  readonly plantState?: PlantState;
}

/** The plant's state a refusal tells (the client's typed errors for 41001 and 41201), if any. */
export function plantStateOf(error: unknown): PlantState | undefined {
  if (error instanceof PlantStoreGoneError) return 'deleted';
  if (error instanceof PlantStorePreconditionFailedError) return 'changed';
  return undefined;
}

// The catalogue's sentence for 41201 speaks of If-Match and ETags, to a program; this one is for a person.
const CHANGED_MEANWHILE =
  'Someone else changed this plant after it was opened here, so nothing was changed; open it again to see it as it is now.';

// The catalogue's codes for the token (docs/errors.md); the message comes with the answer.
const TOKEN_PROBLEMS: ReadonlyMap<number, TokenProblem> = new Map([
  [40101, 'missing'],
  [40102, 'refused'],
  [40301, 'lacks-scope'],
]);

/** Every failure the client reports, told as one sentence; anything else is a fault of the page. */
export function describeFailure(error: unknown): FailureText {
  if (error instanceof PlantStoreApiError) {
    const plantState = plantStateOf(error);
    if (plantState === 'changed') return { message: CHANGED_MEANWHILE, plantState };
    if (plantState === 'deleted') return { message: error.message, plantState };
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
