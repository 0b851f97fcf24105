/**
 * Bodies at least this large wait for a turn of their own before they are parsed. A 64 KiB
 * body takes milliseconds to parse losslessly; small ones (every ordinary plant) take
 * microseconds and go straight through.
 */
export const LARGE_BODY_BYTES = 8 * 1024;

/**
 * Hands out event-loop turns of their own, one waiter per turn, first come first served: when
 * many large bodies finish arriving at once, their parses are spread over successive turns
 * instead of running back to back, and the I/O of other requests (health probes, small
 * creates) is served between any two of them. Owned by the app's JsonBodyPipe.
 */
export class ParseTurns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves in an event-loop turn of its own. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) this.scheduleNext();
    });
  }

  private scheduleNext(): void {
    this.scheduled = true;
    // An immediate queued from inside an immediate runs in the next loop iteration, after its poll phase.
    setImmediate(() => {
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.scheduleNext();
      else this.scheduled = false;
    });
  }
}
