import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repositoryRoot } from '../../../test-support/repository-root.mjs';

/** The page as `pnpm build` leaves it in apps/web/dist (`pnpm test` builds first). */
const DIST = join(repositoryRoot, 'apps/web/dist');
const BUDGET_GZIPPED_JS = 50 * 1024;

function built(file: string): Buffer {
  const path = join(DIST, file);
  if (!existsSync(path)) throw new Error(`${path} is missing: build first (pnpm build, or pnpm test, which builds)`);
  return readFileSync(path);
}

describe('the built page (apps/web/dist)', () => {
  const index = built('index.html').toString('utf8');
  const assets = [...index.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);

  it('names its script, stylesheet and icon by their content hash, all on this origin, and nothing inline', () => {
    expect(assets.map((asset) => asset.replace(/-[A-Z0-9]{8}\./, '-HASH.')).sort()).toEqual([
      '#/new',
      '#/plants',
      '/assets/icon-HASH.svg',
      '/assets/page-HASH.css',
      '/assets/page-HASH.js',
      '/docs',
      '/docs',
    ]);
    for (const asset of assets.filter((path) => path.startsWith('/assets/')))
      expect(built(asset.slice(1)).length).toBeGreaterThan(0);
    expect(index).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
  });

  it('sends at most 50 KB of JavaScript, gzipped', () => {
    const scripts = assets.filter((asset) => asset.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    const gzipped = scripts.reduce((sum, asset) => sum + gzipSync(built(asset.slice(1)), { level: 9 }).length, 0);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_GZIPPED_JS);
  });
});
