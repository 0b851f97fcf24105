import { extname } from 'node:path';
import { UsageError } from '../command.js';

export const FORMATS = ['ndjson', 'csv'] as const;
export type FileFormat = (typeof FORMATS)[number];

const BY_EXTENSION: Readonly<Record<string, FileFormat>> = { '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.csv': 'csv' };

/**
 * The format asked for with --format, else the one the file name says, else `fallback`
 * (for stdin and stdout). A name that says nothing, with no fallback, is a usage error.
 */
export function chooseFormat(
  asked: string | undefined,
  path: string | undefined,
  fallback: FileFormat | undefined,
  hint: string,
): FileFormat {
  if (asked !== undefined) {
    if ((FORMATS as readonly string[]).includes(asked)) return asked as FileFormat;
    throw new UsageError(`unknown format '${asked}' (expected one of: ${FORMATS.join(', ')})`, hint);
  }
  const byName = path === undefined || path === '-' ? undefined : BY_EXTENSION[extname(path).toLowerCase()];
  const format = byName ?? fallback;
  if (format === undefined)
    throw new UsageError(
      `cannot tell the format of '${path}' from its name; add --format ndjson or --format csv`,
      hint,
    );
  return format;
}
