import { createReadStream, fstatSync, openSync } from 'node:fs';
import { DEFAULT_IMPORT_BATCH_SIZE, type ImportLine, type ImportResult } from '@plantstore/domain';
import { MAX_ROWS_PER_STATEMENT } from '@plantstore/adapters-persistence';
import { ExitCode, parseOptions, UsageError, usageHint, type Command } from '../command.js';
import { printJson, printLines } from '../output.js';
import { csvLines, type CsvSource } from '../plants/csv-lines.js';
import { chooseFormat, type FileFormat } from '../plants/file-formats.js';
import { format, ImportProgress } from '../plants/import-progress.js';
import { LineCount } from '../plants/line-count.js';
import { ndjsonLines, type NdjsonSource } from '../plants/ndjson-lines.js';
import { RejectsFile } from '../plants/rejects-file.js';

/**
 * A line (or CSV record) longer than this is rejected unread, so memory stays flat whatever
 * the file: the server's default body limit, far above any valid plant.
 */
const MAX_LINE_BYTES = 64 * 1024;
/**
 * Small reads on purpose: every line of a chunk is parsed before the first is written, and
 * what is alive at a young-generation GC gets promoted; larger chunks raised peak RSS at the
 * same speed (docs/decisions.md#performance).
 */
const READ_CHUNK_BYTES = 16 * 1024;

export const plantsImport: Command = {
  name: 'plants import',
  usage: 'plants import <file|-> [--format ndjson|csv] [--rejects FILE] [--batch-size N] [--json]',
  summary: 'create plants from an NDJSON or CSV file, with the same rules as POST /plants',
  help: [
    'Options:',
    '  --format ndjson|csv  the input format; by default from the extension (.ndjson, .jsonl, .csv),',
    '                       and ndjson for stdin (-)',
    '  --rejects FILE       write the rejected lines to FILE, in the input format, to fix and import again',
    `  --batch-size N       plants per transaction (default ${DEFAULT_IMPORT_BATCH_SIZE}, at most ${MAX_ROWS_PER_STATEMENT})`,
    '  --json               print a JSON summary on the last line of stdout',
    '',
    'NDJSON: one NewPlant object per line, as the body of POST /plants. CSV: a header row',
    'id,name,tag (tag optional), then one plant per record; an empty cell is an absent field.',
    '',
    'Each line is checked like a POST /plants: a new id is imported; an id already stored with',
    'the same name and tag is unchanged; with other content it is a conflict; an id of a deleted',
    'plant is retired (never used again). Invalid, conflicting and retired lines are reported on',
    'stderr with their line number and the message the API would give, and never hold back the',
    'valid lines. Re-running an import changes nothing.',
    '',
    'Plants are written in batches, one transaction each. Ctrl-C stops after the current batch;',
    'a killed import leaves whole batches. Either way, running the same command again completes it.',
    '',
    'Exit status: 0 every line imported or unchanged, 1 some lines rejected, 130 interrupted.',
  ].join('\n'),

  parse(args) {
    const { values, positionals } = parseOptions(this, args, {
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        rejects: { type: 'string' },
        'batch-size': { type: 'string', default: String(DEFAULT_IMPORT_BATCH_SIZE) },
        json: { type: 'boolean', default: false },
      },
    });
    const hint = usageHint(this);
    if (positionals.length !== 1)
      throw new UsageError(
        positionals.length === 0 ? 'missing the file to import (- for stdin)' : 'import takes one file',
        hint,
      );
    const path = positionals[0]!;
    const fileFormat = chooseFormat(values.format, path, path === '-' ? 'ndjson' : undefined, hint);
    const batchSize = Number(values['batch-size']);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_ROWS_PER_STATEMENT) {
      throw new UsageError(`--batch-size must be an integer from 1 to ${MAX_ROWS_PER_STATEMENT}`, hint);
    }
    // Opened now: a missing file is reported before any database is created or connected to.
    const input = openInput(path, hint);

    return async (store) => {
      const started = performance.now();
      let bytesRead = 0;
      const lineCount = new LineCount();
      const interruption = onInterrupt();
      // A stalled input (a pipe nobody writes to) must not outlast Ctrl-C: the read ends with it.
      const chunks = lineCount.ofBytes(
        untilAborted(
          counted(
            input.stream,
            (n) => (bytesRead += n),
            path,
            () => lineCount.reading,
          ),
          interruption.signal,
        ),
      );
      const progress = new ImportProgress(process.stderr, input.size, () => bytesRead);
      const rejects = values.rejects === undefined ? undefined : new RejectsFile(values.rejects, renderSource);
      let result: ImportResult;
      try {
        result = await store.importPlants(batchSize).execute<Source>(
          lineCount.ofEntries(linesOf(fileFormat, chunks)),
          {
            async rejected(rejection) {
              progress.finish();
              process.stderr.write(`line ${rejection.entry.line}: ${rejection.message}\n`);
              await rejects?.add(rejection);
            },
            batchCommitted: (totals) => progress.update({ ...totals, lines: lineCount.through(totals.lines) }),
          },
          interruption.signal,
        );
      } finally {
        interruption.dispose();
        progress.finish();
        input.stream.destroy();
        await rejects?.close();
      }
      const seconds = (performance.now() - started) / 1000;
      // Read to the end, every line of the input counts (trailing blank lines too); stopped early, the lines taken.
      const lines = result.interrupted ? lineCount.through(result.lines) : lineCount.read;
      report({ ...result, lines }, seconds, values.json, rejects);
      if (result.interrupted) return ExitCode.interrupted;
      return result.invalid + result.conflicts + result.retired > 0 ? ExitCode.failed : ExitCode.ok;
    };
  },
};

type Source = NdjsonSource | CsvSource;

function linesOf(fileFormat: FileFormat, chunks: AsyncIterable<Buffer>): AsyncIterable<ImportLine<Source>[]> {
  return fileFormat === 'csv' ? csvLines(chunks, MAX_LINE_BYTES) : ndjsonLines(chunks, MAX_LINE_BYTES);
}

/** How a rejected line is given back in the rejects file: an NDJSON line as it was; a CSV record under its header. */
function renderSource(source: Source): { preamble?: string; text: Buffer | string } | undefined {
  if (source === undefined) return undefined;
  if (typeof source === 'string') return { text: `${source}\n` };
  if (Buffer.isBuffer(source)) return { text: Buffer.concat([source, Buffer.from('\n')]) };
  return source.raw === undefined ? undefined : { preamble: source.header, text: source.raw };
}

function openInput(
  path: string,
  hint: string,
): { stream: NodeJS.ReadableStream & { destroy(): void }; size: number | undefined } {
  if (path === '-') return { stream: process.stdin, size: undefined };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError(`cannot read '${path}': ${reason}`, hint);
  }
  const stat = fstatSync(fd);
  if (stat.isDirectory()) throw new UsageError(`'${path}' is a directory`, hint);
  return {
    stream: createReadStream('', { fd, highWaterMark: READ_CHUNK_BYTES }),
    size: stat.isFile() ? stat.size : undefined,
  };
}

/**
 * The input's chunks, counted. A read that fails (a disk error, a vanished network file) ends
 * the import with the line it could not read: nothing past it is claimed, and no summary says
 * the file was read to its end.
 */
async function* counted(
  stream: AsyncIterable<Buffer | string>,
  add: (bytes: number) => void,
  path: string,
  line: () => number,
): AsyncGenerator<Buffer> {
  const name = path === '-' ? 'stdin' : `'${path}'`;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      add(bytes.length);
      yield bytes;
    }
  } catch (error) {
    throw new Error(
      `cannot read ${name} at line ${line()} (${(error as Error).message}); the whole batches before it are stored, ` +
        'and running the same command again completes the import once the file can be read',
      { cause: error },
    );
  }
}

/** The chunks of `source` until `signal` aborts, even while a read is pending. */
async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const aborted = new Promise<IteratorResult<T>>((resolve) => {
    const stop = () => resolve({ done: true, value: undefined });
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a read still pending would hold it; the caller destroys the stream.
    void iterator.return?.();
  }
}

/** First Ctrl-C: stop after the batch in flight. A second: leave at once (the transaction keeps batches whole). */
function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort();
    process.stderr.write('\nStopping after the current batch (Ctrl-C again to stop now)…\n');
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

function report(result: ImportResult, seconds: number, json: boolean, rejects: RejectsFile<Source> | undefined): void {
  // The domain's `replayed` is printed as `unchanged`: the word (and JSON key) users already script against.
  const { imported, replayed: unchanged, conflicts, retired, invalid, lines, interrupted } = result;
  if (json) {
    printJson({
      imported,
      unchanged,
      conflicts,
      retired,
      invalid,
      seconds: Number(seconds.toFixed(3)),
      lines,
      interrupted,
    });
    return;
  }
  const rate = seconds > 0 ? Math.round(lines / seconds) : lines;
  const out = [
    imported === 0 && invalid + conflicts + retired === 0 && unchanged > 0
      ? `Nothing to import: all ${format(unchanged)} plants were already stored.`
      : `Imported ${plural(imported, 'plant')}; ${format(unchanged)} unchanged, ${plural(conflicts, 'conflict')}, ${format(retired)} retired, ${format(invalid)} invalid.`,
    `${plural(lines, 'line')} in ${seconds.toFixed(2)} s (${format(rate)} lines/s).`,
  ];
  if (rejects !== undefined && rejects.written > 0)
    out.push(`${plural(rejects.written, 'rejected line')} written to ${rejects.path}: fix them and import that file.`);
  if (interrupted)
    out.push(`Interrupted after ${plural(lines, 'line')}: run the same command again to complete the import.`);
  printLines(...out);
}

function plural(n: number, noun: string): string {
  return `${format(n)} ${noun}${n === 1 ? '' : 's'}`;
}
