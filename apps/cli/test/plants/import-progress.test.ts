import { ImportProgress } from '../../src/plants/import-progress.js';

function output(isTTY: boolean) {
  const written: string[] = [];
  return { written, isTTY, write: (text: string) => written.push(text) };
}

const totals = (lines: number) => ({ lines, imported: lines, replayed: 0, conflicts: 0, retired: 0, invalid: 0 });

describe('ImportProgress', () => {
  it('on a terminal, redraws one bar in place with percent, rate and ETA, at most ten times a second', () => {
    let clock = 0;
    const terminal = output(true);
    let read = 0;
    const progress = new ImportProgress(
      terminal,
      1000,
      () => read,
      () => clock,
    );
    clock = 2000;
    read = 250;
    progress.update(totals(50_000));
    clock = 2050;
    progress.update(totals(51_000));
    expect(terminal.written).toEqual(['\r\x1b[2K[######------------------] 25% 50,000 lines, 25,000 lines/s ETA 6s']);
    progress.finish();
    expect(terminal.written.at(-1)).toBe('\r\x1b[2K');
  });

  it('elsewhere, prints a plain line every five seconds, without ETA when the size is unknown (stdin)', () => {
    let clock = 0;
    const pipe = output(false);
    const progress = new ImportProgress(
      pipe,
      undefined,
      () => 0,
      () => clock,
    );
    clock = 1000;
    progress.update(totals(10));
    clock = 5000;
    progress.update(totals(20_000));
    clock = 9000;
    progress.update(totals(30_000));
    expect(pipe.written).toEqual(['progress: 20,000 lines, 4,000 lines/s, 20,000 imported\n']);
    progress.finish();
    expect(pipe.written).toHaveLength(1);
  });
});
