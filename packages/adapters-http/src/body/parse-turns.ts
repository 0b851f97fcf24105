/**
 * Bodies at least this large wait for a turn of their own before they are parsed. A 64 KiB
 * body takes milliseconds to parse losslessly; small ones (every ordinary plant) take
 * microseconds and go straight through.
 */
export const LARGE_BODY_BYTES = 8 * 1024;

const waiting: Array<() => void> = [];
let scheduled = false;

/**
 * Resolves in an event-loop turn of its own: one waiter per turn, first come first served.
 * When many large bodies finish arriving at once, their parses are spread over successive
 * turns instead of running back to back, and the I/O of other requests (health probes, small
 * creates) is served between any two of them.
 */
export function parseTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) scheduleNext();
  });
}

function scheduleNext(): void {
  scheduled = true;
  // An immediate queued from inside an immediate runs in the next loop iteration, after its poll phase.
  setImmediate(() => {
    waiting.shift()?.();
    if (waiting.length > 0) scheduleNext();
    else scheduled = false;
  });
}
