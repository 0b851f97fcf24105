import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Plant } from '@plantstore/domain';
import { parseOptions, UsageError, usageHint, type Command } from '../command.js';
import { chooseFormat } from '../plants/file-formats.js';
import { format } from '../plants/import-progress.js';
import { CSV_HEADER, formatPlants } from '../plants/plant-lines.js';

const PLANTS_PER_WRITE = 1000;

export const plantsExport: Command = {
  name: 'plants export',
  usage: 'plants export [--format ndjson|csv] [-o FILE]',
  summary: 'write every plant, ascending by id, as NDJSON or CSV that plants import reads back',
  help: [
    'Options:',
    '  --format ndjson|csv  the output format; by default from the extension of FILE, else ndjson',
    '  -o, --output FILE    write to FILE instead of stdout; it appears only once complete',
    '',
    'Ids are written exactly (all 64 bits). Exporting and importing into an empty store',
    'reproduces the plants. The count goes to stderr, so stdout holds only the data.',
  ].join('\n'),

  parse(args) {
    const { values } = parseOptions(this, args, {
      options: { format: { type: 'string' }, output: { type: 'string', short: 'o' } },
    });
    const hint = usageHint(this);
    if (values.output === '') throw new UsageError('--output needs a file name', hint);
    const fileFormat = chooseFormat(values.format, values.output, 'ndjson', hint);

    return async (store) => {
      const target =
        values.output === undefined
          ? undefined
          : { path: values.output, partial: `${values.output}.partial-${process.pid}` };
      const out: Writable = target === undefined ? process.stdout : createWriteStream(target.partial);
      let count = 0;
      try {
        // A file that cannot be created fails here, as an error, not as an unhandled stream event.
        if (target !== undefined) await once(out, 'ready');
        if (fileFormat === 'csv') await write(out, CSV_HEADER);
        let page: Plant[] = [];
        for await (const plant of store.exportPlants.execute()) {
          page.push(plant);
          if (page.length < PLANTS_PER_WRITE) continue;
          await write(out, formatPlants(page, fileFormat));
          count += page.length;
          page = [];
        }
        await write(out, formatPlants(page, fileFormat));
        count += page.length;
        if (target !== undefined) {
          await new Promise<void>((resolve, reject) =>
            out.end((error?: Error | null) => (error ? reject(error) : resolve())),
          );
          // Renamed only when complete: a file by that name is never a cut-off export.
          renameSync(target.partial, target.path);
        }
      } catch (error) {
        if (target === undefined) throw error;
        out.destroy();
        rmSync(target.partial, { force: true });
        throw namingTarget(error, target);
      }
      process.stderr.write(
        `Exported ${format(count)} plant${count === 1 ? '' : 's'}${target ? ` to ${target.path}` : ''}.\n`,
      );
    };
  },
};

/** The temporary file is ours, not the operator's: a failure names the file they asked for. */
function namingTarget(error: unknown, target: { path: string; partial: string }): unknown {
  if (!(error instanceof Error) || !error.message.includes(target.partial)) return error;
  return new Error(error.message.split(target.partial).join(target.path), { cause: error });
}

async function write(out: Writable, text: string): Promise<void> {
  if (text !== '' && !out.write(text)) await once(out, 'drain');
}
