/**
 * The first table under a heading of a Markdown document, as rows of trimmed cells (header row
 * and separator left out), for tests that hold a documented catalogue to the code's.
 */
export function markdownTable(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '').trim() === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,6} /.test(line)) break;
    if (line.startsWith('|')) rows.push(cells(line));
    else if (rows.length > 0) break;
  }
  if (rows.length < 2) throw new Error(`no table under "${heading}"`);
  return rows.slice(2);
}

/** The cells of one table row; `\|` is a pipe inside a cell. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}
