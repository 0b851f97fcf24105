#!/usr/bin/env node
/**
 * Builds the page into dist/: esbuild bundles src/main.ts (with the domain and the client) and
 * its CSS into assets named by their content's hash, and index.html is written to reference
 * them. A changed asset gets a new name, so the server can let browsers keep assets forever
 * and revalidate index.html alone. `pnpm build` runs this after `tsc -b`, which type-checks.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const assets = join(dist, 'assets');

// Old hashes go: the server serves whatever assets/ holds.
rmSync(assets, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src/main.ts', out: 'page' },
    { in: 'src/page.css', out: 'page' },
    { in: 'src/icon.svg', out: 'icon' },
  ],
  loader: { '.svg': 'copy' },
  bundle: true,
  format: 'esm',
  // What the client needs of a browser (AbortSignal.any, BigInt64Array): current evergreen browsers.
  target: ['es2022', 'chrome116', 'firefox124', 'safari17.4'],
  minify: true,
  sourcemap: 'linked',
  charset: 'utf8',
  outdir: assets,
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.entries(metafile.outputs);
const page = outputs.find(([, output]) => output.entryPoint === 'src/main.ts');
const icon = outputs.find(([, output]) => output.entryPoint === 'src/icon.svg');
// esbuild names no entry point for a CSS output: the stylesheet is the one .css file.
const style = outputs.find(([file]) => file.endsWith('.css'));
if (page === undefined || style === undefined || icon === undefined)
  throw new Error('esbuild wrote no page script, stylesheet or icon');
const href = (output) => `/assets/${basename(output)}`;
const html = readFileSync(join(root, 'src/index.html'), 'utf8')
  .replace('{{js}}', href(page[0]))
  .replace('{{css}}', href(style[0]))
  .replace('{{icon}}', href(icon[0]));
writeFileSync(join(dist, 'index.html'), html);
// What each input weighs in the bundle, for bench/web-size.mjs; beside assets/, so never served.
writeFileSync(join(dist, 'esbuild-meta.json'), JSON.stringify(metafile));
process.stdout.write(`web: ${relative(root, join(dist, 'index.html'))} and ${outputs.length} assets\n`);
