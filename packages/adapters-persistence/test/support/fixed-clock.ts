import type { Clock } from '@plantstore/domain';

/** A clock that stands still, so stored timestamps can be compared exactly. */
export function fixedClock(iso: string): Clock {
  return { now: () => new Date(iso) };
}
