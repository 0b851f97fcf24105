import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { strongEtag } from '../http/entity-tags.js';

/** One file of the page, read once at start. */
export interface PageFile {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

// What a built page holds; a file of another kind is not served (with nosniff, a wrong type breaks it).
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The built page (apps/web/dist): `index.html`, and `assets/` whose names carry their content's
 * hash. All of it is read into memory once, at start: a few files, served by name from a map,
 * so no request path ever reaches the file system.
 */
export class WebPageFiles {
  private constructor(
    readonly index: PageFile,
    private readonly assets: ReadonlyMap<string, PageFile>,
  ) {}

  /** Reads the page in `directory`; throws, naming the file, when it has not been built. */
  static read(directory: string): WebPageFiles {
    const indexPath = join(directory, 'index.html');
    if (!existsSync(indexPath))
      throw new Error(
        `the web page is not built (${indexPath} is missing): build it with \`pnpm build\`, or turn the page off`,
      );
    const assetsDir = join(directory, 'assets');
    const assets = new Map<string, PageFile>();
    for (const name of existsSync(assetsDir) ? readdirSync(assetsDir) : []) {
      const file = pageFile(join(assetsDir, name));
      if (file !== undefined) assets.set(name, file);
    }
    return new WebPageFiles(pageFile(indexPath)!, assets);
  }

  /** The asset of that name, or undefined. */
  asset(name: string): PageFile | undefined {
    return this.assets.get(name);
  }
}

function pageFile(path: string): PageFile | undefined {
  const contentType = CONTENT_TYPES[extname(path)];
  if (contentType === undefined) return undefined;
  const body = readFileSync(path);
  return { body, contentType, etag: strongEtag(body) };
}
