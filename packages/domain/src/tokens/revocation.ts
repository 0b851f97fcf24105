/**
 * A revoked token is refused by every running instance within this bound: an instance may
 * remember a token it has found for at most this long. Operators are told this number.
 */
export const REVOCATION_BOUND_MS = 5_000;
