// `pnpm bench:web` (run after `pnpm build`). See bench/README.md.
//
// The size of the catalogue page as a browser fetches it: every asset apps/web/dist/index.html
// names, raw, gzipped (level 9) and with Brotli (quality 11), against the page's budget of
// 50 KB of gzipped JavaScript; and where the script's bytes come from (esbuild's metafile:
// the page's own code, @plantstore/client, @plantstore/domain). One markdown table, saved
// under bench/results/ with the machine and the date.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { writeResult } from './results.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'apps/web/dist');
const BUDGET_GZIP_JS_BYTES = 50 * 1024;

let index;
try {
  index = readFileSync(join(DIST, 'index.html'));
} catch {
  console.error('bench: apps/web/dist/index.html is missing: run `pnpm build` first');
  process.exit(2);
}

const sizes = (bytes) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});
const kb = (bytes) => (bytes / 1024).toFixed(1);

const files = [{ name: 'index.html', ...sizes(index) }];
for (const [, path] of index.toString('utf8').matchAll(/(?:src|href)="\/assets\/([^"]+)"/g))
  files.push({ name: `assets/${path}`, ...sizes(readFileSync(join(DIST, 'assets', path))) });
const scripts = files.filter((file) => file.name.endsWith('.js'));
const scriptGzip = scripts.reduce((sum, file) => sum + file.gzip, 0);

// Minified bytes in the script by origin, before compression.
const meta = JSON.parse(readFileSync(join(DIST, 'esbuild-meta.json'), 'utf8'));
const script = Object.values(meta.outputs).find((output) => output.entryPoint === 'src/main.ts');
const origins = new Map();
for (const [input, { bytesInOutput }] of Object.entries(script.inputs)) {
  const origin = /packages\/(client|domain)\//.exec(input)?.[1];
  const name = origin === undefined ? 'the page (apps/web/src)' : `@plantstore/${origin}`;
  origins.set(name, (origins.get(name) ?? 0) + bytesInOutput);
}

const report = [
  '## What a browser fetches',
  '',
  '| file | bytes | gzip -9 | brotli 11 |',
  '| ---- | ----: | ------: | --------: |',
  ...files.map((file) => `| ${file.name} | ${file.raw} | ${file.gzip} | ${file.brotli} |`),
  '',
  `JavaScript, gzipped: **${scriptGzip} bytes (${kb(scriptGzip)} KB)**, budget ${kb(BUDGET_GZIP_JS_BYTES)} KB: ${scriptGzip <= BUDGET_GZIP_JS_BYTES ? 'within' : '**over**'}. No UI library; source maps (\`.map\`) are fetched only by developer tools.`,
  '',
  '## Where the script comes from (minified bytes, before compression)',
  '',
  '| origin | bytes |',
  '| ------ | ----: |',
  ...[...origins].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => `| ${name} | ${bytes} |`),
].join('\n');

console.log(report);
console.log(`\nsaved to ${writeResult('Catalogue page size', report, 'web')}`);
if (scriptGzip > BUDGET_GZIP_JS_BYTES) process.exit(1);
