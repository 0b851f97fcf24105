import { plantNameKey } from '@plantstore/domain';
import { PlantStoreClient } from '@plantstore/client';
import { CataloguePages, type PageChange } from './catalogue-pages.js';
import { LiveFeed } from './live-feed.js';
import { fragmentOf, routeOf, type CatalogueFilter, type Route } from './routes.js';
import type { TokenSession } from './token-session.js';
import { catalogueView } from './views/catalogue-view.js';
import { editPlantView } from './views/edit-plant-view.js';
import { newPlantView } from './views/new-plant-view.js';
import { plantView } from './views/plant-view.js';
import { tokenView } from './views/token-view.js';
import type { View, ViewContext } from './views/view-context.js';

const PAGE_SIZE = 25;

/** The elements of index.html the page fills. */
export interface PageElements {
  readonly view: HTMLElement;
  readonly status: HTMLElement;
  /** Shown only while a token is kept: the views' links and "Forget token". */
  readonly signedIn: readonly HTMLElement[];
  readonly forget: HTMLButtonElement;
}

/**
 * The page: one view at a time, chosen by the URL's fragment, each with the client of the
 * token kept in this tab. Without a token, the token view comes first, then the view asked for.
 */
export class PageApp {
  private leaving = new AbortController();
  private client: PlantStoreClient | undefined;
  private feed: LiveFeed | undefined;
  private walk: { readonly filter: CatalogueFilter; readonly pages: CataloguePages } | undefined;
  private notice = '';

  constructor(
    private readonly elements: PageElements,
    private readonly session: TokenSession,
    private readonly origin: string,
  ) {
    elements.forget.addEventListener('click', () => this.useAnotherToken('Your token is forgotten.'));
  }

  /** Shows the view of `fragment` (location.hash). */
  show(fragment: string): void {
    this.leaving.abort();
    this.leaving = new AbortController();
    const token = this.session.token;
    for (const element of this.elements.signedIn) element.hidden = token === undefined;
    this.elements.status.textContent = this.notice;
    this.notice = '';
    const view =
      token === undefined
        ? tokenView(this.session, () => this.show(location.hash))
        : this.viewOf(routeOf(fragment), token);
    this.elements.view.replaceChildren(view.element);
    // The tab's title names the view too: it is what a screen reader says first, and what history shows.
    document.title = `${view.focus.textContent ?? ''} · Plant Store`;
    view.focus.focus();
  }

  private viewOf(route: Route, token: string): View {
    if (this.client === undefined) {
      this.client = new PlantStoreClient({ baseUrl: this.origin, token });
      this.feed = new LiveFeed(this.client);
    }
    const context = this.context(this.client, this.feed!, this.leaving.signal);
    switch (route.view) {
      case 'catalogue':
        return catalogueView({ tag: route.tag, name: route.name }, context);
      case 'plant':
        return plantView(route.id, context);
      case 'edit-plant':
        return editPlantView(route.id, context);
      case 'new-plant':
        return newPlantView(context);
    }
  }

  private context(client: PlantStoreClient, feed: LiveFeed, signal: AbortSignal): ViewContext {
    return {
      client,
      signal,
      go: (route, notice = '') => {
        this.notice = notice;
        const fragment = fragmentOf(route);
        // The same fragment fires no hashchange: show it again directly.
        if (location.hash === fragment) this.show(fragment);
        else location.hash = fragment;
      },
      announce: (message) => {
        this.elements.status.textContent = message;
      },
      catalogue: (filter) => {
        const kept = this.walk;
        const same = kept !== undefined && kept.filter.tag === filter.tag && kept.filter.name === filter.name;
        if (same && !kept.pages.failed) return kept.pages;
        const { tag, name } = filter;
        const query = {
          tags: tag === undefined ? [] : [tag],
          ...(name === undefined ? {} : { name }),
          limit: PAGE_SIZE,
        };
        const pages = new CataloguePages(client.listPlantPages(query), PAGE_SIZE);
        this.walk = { filter, pages };
        return pages;
      },
      catalogueChanged: () => {
        this.walk = undefined;
      },
      beforeRead: async () => {
        if (feed.started) return;
        // A walk read without a cursor taken before it could not be kept exact: read it anew.
        const walkCursor = this.walk?.pages.feedCursor;
        if (walkCursor !== undefined) {
          feed.startFrom(walkCursor);
          return;
        }
        this.walk = undefined;
        await feed.startFromNow(signal);
      },
      // The walk kept is brought up to every change, whichever view is shown, as the cursor moves on;
      // a tab's first follow starts where the walk was listed from.
      follow: (apply) => {
        feed.startFrom(this.walk?.pages.feedCursor);
        void feed.follow(signal, (changes) => {
          const walk = this.walk;
          const inCatalogue: PageChange[] = [];
          for (const change of changes) {
            const nameKey = walk?.filter.name === undefined ? undefined : plantNameKey(walk.filter.name);
            const applied = walk?.pages.apply(change, walk.filter.tag, nameKey);
            if (applied !== undefined) inCatalogue.push(applied);
          }
          apply(changes, inCatalogue);
        });
      },
      useAnotherToken: () => this.useAnotherToken(''),
    };
  }

  private useAnotherToken(notice: string): void {
    this.session.forget();
    this.client = undefined;
    this.feed = undefined;
    this.walk = undefined;
    this.notice = notice;
    this.show(location.hash);
  }
}
