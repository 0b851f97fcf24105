#!/usr/bin/env node
/**
 * The repository stands alone: a user's clone has nothing beside it. This check (run by
 * `pnpm lint`) fails when a tracked file names a path that leaves the repository (a relative
 * path climbing above the root) or cites a document that lives outside it.
 *
 * Usage: node scripts/check-self-contained.mjs [root]   (exit 1 and one line per finding)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), '..'));

// Documents that exist only beside the repository, never in it. The section sign is written
// as an escape so that this file does not cite what it forbids.
const OUTSIDE_DOCUMENTS = [
  /\bDESIGN\.md\b/,
  /\bDESIGN \u00a7/,
  /\bSTYLE\.md\b/,
  /\bplant-store-spec\.md\b/,
  /\bshared\/(corpora|spec|hooks)\b/,
];
// A run of `..` segments, as written in code, configuration or a Markdown link.
const CLIMB = /(?<![\w.])((?:\.\.\/)+\.\.|(?:\.\.\/)+|\.\.(?=['"`]))/g;
const SKIPPED =
  /(^|\/)(node_modules|dist|\.git|test-output|\.bench|data)(\/|$)|(^|\/)pnpm-lock\.yaml$|(^|\/)fixtures\//;

function trackedFiles() {
  try {
    return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    return walk('');
  }
}

function walk(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (SKIPPED.test(path)) return [];
    return entry.isDirectory() ? walk(path) : [path];
  });
}

const findings = [];
for (const file of trackedFiles()) {
  if (SKIPPED.test(file) || file === 'scripts/check-self-contained.mjs') continue;
  let text;
  try {
    if (!statSync(join(root, file)).isFile()) continue;
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    continue;
  }
  if (text.includes('\0')) continue;
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const pattern of OUTSIDE_DOCUMENTS)
      if (pattern.test(line)) findings.push(`${where}: cites ${pattern.exec(line)[0]}, which is not in the repository`);
    for (const match of line.matchAll(CLIMB)) {
      const climbs = match[1].split('/').filter((part) => part === '..').length;
      const target = resolve(root, dirname(file), ...Array(climbs).fill('..'));
      if (target !== root && !target.startsWith(root + sep))
        findings.push(
          `${where}: '${match[1]}' leaves the repository (from ${dirname(file)}/ it reaches ${relative(root, target)})`,
        );
    }
  });
}

for (const finding of findings) console.error(finding);
if (findings.length > 0) {
  console.error(`${findings.length} path(s) leave the repository; its clone must stand alone.`);
  process.exit(1);
}
console.log('✔ no path leaves the repository');
