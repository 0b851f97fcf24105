import type { ImportTotals } from '@plantstore/domain';

const BAR_WIDTH = 24;
const BAR_EVERY_MS = 100;
const LINE_EVERY_MS = 5000;

export interface ProgressOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

/**
 * Where an import stands. On a terminal: one bar redrawn in place with rate and ETA (the
 * ETA needs the input's size, known for a file, not for stdin). Elsewhere (a pipe, a log,
 * CI): one plain line every few seconds, so a long import shows life without flooding.
 */
export class ImportProgress {
  private readonly started: number;
  private lastShown = 0;
  private barShown = false;

  constructor(
    private readonly output: ProgressOutput,
    /** Bytes of input in all, when known. */
    private readonly totalBytes: number | undefined,
    private readonly bytesRead: () => number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    this.lastShown = this.started;
  }

  update(totals: ImportTotals): void {
    const now = this.now();
    if (now - this.lastShown < (this.output.isTTY ? BAR_EVERY_MS : LINE_EVERY_MS)) return;
    this.lastShown = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? totals.lines / seconds : 0;
    const fraction = this.totalBytes ? Math.min(1, this.bytesRead() / this.totalBytes) : undefined;
    const eta = fraction !== undefined && fraction > 0 ? ` ETA ${formatSeconds(seconds / fraction - seconds)}` : '';
    const counts = `${format(totals.lines)} lines, ${format(Math.round(rate))} lines/s`;
    if (this.output.isTTY) {
      const bar =
        fraction === undefined
          ? ''
          : `[${'#'.repeat(Math.round(fraction * BAR_WIDTH)).padEnd(BAR_WIDTH, '-')}] ${Math.floor(fraction * 100)}% `;
      this.output.write(`\r\x1b[2K${bar}${counts}${eta}`);
      this.barShown = true;
    } else {
      const percent = fraction === undefined ? '' : ` (${Math.floor(fraction * 100)}%)`;
      this.output.write(`progress: ${counts}${percent}, ${format(totals.imported)} imported${eta}\n`);
    }
  }

  /** Ends the bar's line, so what follows starts on a line of its own. */
  finish(): void {
    if (this.barShown) this.output.write('\r\x1b[2K');
    this.barShown = false;
  }
}

export function format(n: number): string {
  return n.toLocaleString('en-US');
}

function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
