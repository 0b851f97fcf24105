import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTokenWithCli } from '../../../../test-support/built-cli.js';
import { startBuiltServer, type BuiltServer } from '../../../../test-support/built-server.mjs';
import { launchChromium } from './browser.js';
import { watchPage, type WatchedPage } from './watched-page.js';

/** A token the CLI creates on the fresh store before the server starts. */
export interface StandToken {
  readonly name: string;
  readonly scopes?: readonly string[];
}

export interface BrowserStandOptions {
  /** The suite, as the run's list of what was skipped names it when there is no browser. */
  readonly what: string;
  /** The start of the temporary data directory's name. */
  readonly dirPrefix: string;
  readonly tokens: readonly StandToken[];
  /** Added to the server's environment (its DATABASE_URL is the stand's). */
  readonly serverEnv?: Record<string, string>;
  /** Runs on the store before the server starts: an import by the CLI, say. */
  readonly beforeServer?: (stand: BrowserStand) => Promise<void>;
  /** Runs once the server answers: plants made through the API, a first tab opened. */
  readonly ready?: (stand: BrowserStand) => Promise<void>;
}

/** A tab of its own: a browser context (its own session) with one watched page. */
export interface Tab {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly watched: WatchedPage;
}

export interface BrowserStand {
  /** No browser on this machine (launchChromium said why): every test passes over it. */
  readonly skipped: boolean;
  readonly dataDir: string;
  /** The fresh SQLite file in dataDir. */
  readonly databaseUrl: string;
  /** The built server; another one after `restartServer`. */
  readonly server: BuiltServer;
  /** The tokens, in the order of the options' `tokens`. */
  readonly tokens: readonly string[];
  /** A new tab, the size every browser suite uses, its requests watched. */
  readonly openTab: () => Promise<Tab>;
  /** Stops the server with `signal` and starts it again on the same port and store. */
  readonly restartServer: (signal?: NodeJS.Signals) => Promise<void>;
}

/**
 * What each browser suite stands on, set up in beforeAll and taken down in afterAll: Debian's
 * Chromium, the built server on a fresh SQLite file in a temporary directory, tokens made by
 * the CLI. Without a browser nothing else is set up and `skipped` is true.
 */
export function useBrowserStand(options: BrowserStandOptions): BrowserStand {
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  let server: BuiltServer | undefined;
  const tokens: string[] = [];
  const databaseUrl = () => `sqlite:${join(dataDir!, 'plantstore.sqlite')}`;
  const serverEnv = () => ({ ...options.serverEnv, DATABASE_URL: databaseUrl() });

  const stand: BrowserStand = {
    get skipped() {
      return browser === undefined;
    },
    get dataDir() {
      return dataDir!;
    },
    get databaseUrl() {
      return databaseUrl();
    },
    get server() {
      return server!;
    },
    tokens,
    openTab: async () => {
      const context = await browser!.newContext({ viewport: { width: 1100, height: 860 } });
      const page = await context.newPage();
      return { context, page, watched: watchPage(page) };
    },
    restartServer: async (signal) => {
      const { port } = server!;
      await server!.stop(signal);
      server = await startBuiltServer(serverEnv(), { port });
    },
  };

  beforeAll(async () => {
    browser = await launchChromium(options.what);
    if (browser === undefined) return;
    dataDir = mkdtempSync(join(tmpdir(), options.dirPrefix));
    for (const { name, scopes } of options.tokens)
      tokens.push((await createTokenWithCli(databaseUrl(), name, scopes)).token);
    await options.beforeServer?.(stand);
    server = await startBuiltServer(serverEnv());
    await options.ready?.(stand);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  return stand;
}
