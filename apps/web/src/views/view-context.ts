import type { PlantFeedChange, PlantStoreClient } from '@plantstore/client';
import type { CataloguePages, PageChange } from '../catalogue-pages.js';
import type { CallOptions } from '../conditional-changes.js';
import type { CatalogueFilter, Route } from '../routes.js';

/** What a view is given by the page around it. */
export interface ViewContext {
  readonly client: PlantStoreClient;
  /** Aborted when the person leaves the view: its requests stop and their answers are dropped. */
  readonly signal: AbortSignal;
  /** Goes to another view; `notice` is said there (a polite announcement, also shown). */
  go(route: Route, notice?: string): void;
  /** Says something that does not move the focus: progress, a result. */
  announce(message: string): void;
  /** The walk of the catalogue with this filter, kept while the person moves between views. */
  catalogue(filter: CatalogueFilter): CataloguePages;
  /** The catalogue changed (a plant was added, changed or deleted): the next catalogue view walks it anew. */
  catalogueChanged(): void;
  /**
   * Follows the catalogue's changes, made here or anywhere else, while the view is shown: each
   * batch goes to `apply`, until the person leaves the view, with what it changed in the
   * catalogue pages kept (which every following view keeps current).
   */
  follow(apply: (changes: readonly PlantFeedChange[], inCatalogue: readonly PageChange[]) => void): void;
  /**
   * Called by a view that reads without listing (a plant), before its read: makes sure the
   * tab's following starts at a cursor taken before that read (a one-plant list's, when the tab
   * has none yet), so that what the view shows is kept exact, never by reading the feed from its start.
   */
  beforeRead(): Promise<void>;
  /** Forgets the token and asks for another. */
  useAnotherToken(): void;
}

/** A view: its element, and where the focus goes when it is shown. */
export interface View {
  readonly element: HTMLElement;
  readonly focus: HTMLElement;
}

/** A deadline for one call the person waits for: longer than the client's own retries usually take. */
export function callOptions(context: ViewContext): CallOptions {
  return { signal: context.signal, deadline: Date.now() + 20_000 };
}

/** The view was left while its call ran: the answer, success or failure, is nobody's now. */
export function isLeft(context: ViewContext): boolean {
  return context.signal.aborted;
}
