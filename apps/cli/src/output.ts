/** Writes one JSON document as a line of stdout; with `--json` it is all a command prints there, for scripts. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export function printLines(...lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** A plain left-aligned table; columns as wide as their widest cell, two spaces apart. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** ISO-8601 in UTC to the second: exact, sortable and short enough for a table. */
export function formatTime(date: Date | undefined, absent = '-'): string {
  return date === undefined ? absent : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
