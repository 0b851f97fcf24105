import type { Clock } from '../common/clock.js';

/** A clock that only moves when a test moves it, so every timestamp is predictable. */
export class FixedClock implements Clock {
  private current: Date;

  constructor(start: Date | string = '2025-06-01T12:00:00.000Z') {
    this.current = new Date(start);
  }

  now(): Date {
    // A fresh Date each call: callers may keep it, and must not see it move later.
    return new Date(this.current);
  }

  /** Moves the clock on and returns the new time. */
  advance(milliseconds: number): Date {
    this.current = new Date(this.current.getTime() + milliseconds);
    return this.now();
  }
}
