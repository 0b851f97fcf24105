/** Where the use cases read the time: a port, so tests and other runtimes can pin it. */
export interface Clock {
  /** The current instant. Callers may keep the Date: return a fresh one each call. */
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
