import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The READMEs stay what they are for: the repository's a product page that links to docs/,
 * the bench's a guide to running and reading it. Rules and figures live in docs/ and in
 * bench/results/, so growing past these sizes means something belongs there instead; and a
 * page that links elsewhere for the full rules must link somewhere that exists.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const documents = [
  'README.md',
  'bench/README.md',
  'packages/domain/README.md',
  'packages/client/README.md',
  ...readdirSync(join(root, 'docs')).map((file) => `docs/${file}`),
  ...readdirSync(join(root, 'bench/results')).map((file) => `bench/results/${file}`),
].filter((file) => file.endsWith('.md'));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

/** Every relative link of a document that does not lead to a file, or to a heading, that exists. */
function brokenLinks(document: string): string[] {
  const path = join(root, document);
  const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue;
    const [file = '', anchor] = target!.split('#');
    const linked = file === '' ? path : resolve(dirname(path), file);
    if (!existsSync(linked) || relative(root, linked).startsWith('..')) broken.push(target!);
    else if (anchor !== undefined && !(statSync(linked).isFile() && anchorsIn(linked).has(anchor)))
      broken.push(target!);
  }
  return broken;
}

/** Every package, app and example of the workspace, with whether it is published. */
const workspaceMembers = ['packages', 'apps', 'examples'].flatMap((group) =>
  readdirSync(join(root, group))
    .filter((name) => existsSync(join(root, group, name, 'package.json')))
    .map((name) => {
      const manifest = JSON.parse(readFileSync(join(root, group, name, 'package.json'), 'utf8')) as {
        name: string;
        private?: boolean;
      };
      return { dir: `${group}/${name}`, name: manifest.name, published: manifest.private !== true };
    }),
);
const privateMembers = workspaceMembers.filter((member) => !member.published).map((member) => member.dir);
const publishedMembers = workspaceMembers.filter((member) => member.published);

/** The first screen of a README: what a reader sees before scrolling. */
const FIRST_SCREEN_LINES = 25;

describe('the shape of the READMEs', () => {
  it.each([
    ['README.md', 16 * 1024],
    ['bench/README.md', 12 * 1024],
  ])('%s is at most %d bytes', (file, limit) => {
    expect(statSync(join(root, file)).size).toBeLessThanOrEqual(limit);
  });

  it('covers every package, app and example, the two published packages among them', () => {
    expect(publishedMembers.map((member) => member.name).sort()).toEqual(['@plantstore/client', '@plantstore/domain']);
    expect(privateMembers).toEqual(expect.arrayContaining(['packages/json-reader', 'apps/api', 'apps/cli']));
  });

  it.each(privateMembers)('%s has a README of at most 6 KB that says how it is tested', (dir) => {
    const readme = join(root, dir, 'README.md');
    expect(existsSync(readme)).toBe(true);
    expect(statSync(readme).size).toBeLessThanOrEqual(6 * 1024);
    expect(readFileSync(readme, 'utf8')).toMatch(/^## (How it is tested|Tests)$/m);
  });

  it.each(publishedMembers)(
    '$dir opens with its face: npm install and a first example on the first screen',
    ({ dir, name }) => {
      const firstScreen = readFileSync(join(root, dir, 'README.md'), 'utf8')
        .split('\n')
        .slice(0, FIRST_SCREEN_LINES)
        .join('\n');
      expect(firstScreen).toContain(`npm install ${name}\n`);
      expect(firstScreen).toMatch(/^```ts\n[\s\S]*?^```$/m);
    },
  );

  it.each([...documents, ...privateMembers.map((dir) => `${dir}/README.md`)])(
    '%s: every relative link leads to a file and heading that exist',
    (document) => {
      expect(brokenLinks(document)).toEqual([]);
    },
  );
});
