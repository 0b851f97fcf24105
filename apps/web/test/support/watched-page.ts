import type { Page } from 'playwright-core';

/** A request the page sent, with the headers the tests look at. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly ifMatch: string | undefined;
  readonly accept: string | undefined;
  /** The cursor a change stream resumed from. */
  readonly lastEventId: string | undefined;
}

/** An answer the page received: its status, and the ETag of a plant read or saved. */
export interface SeenResponse {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly etag: string | undefined;
}

/** Everything a page did that a person would not see: its requests and answers, console, errors, dialogs. */
export interface WatchedPage {
  readonly requests: SeenRequest[];
  readonly responses: SeenResponse[];
  readonly consoleLines: string[];
  readonly pageErrors: string[];
  /** A dialog (an `alert(1)` run by a name, say) is recorded and dismissed. */
  readonly dialogs: string[];
  /** Requests that ended without an answer's end: aborted by the page (a view left) or cut. */
  readonly failed: string[];
}

export function watchPage(page: Page): WatchedPage {
  const watched: WatchedPage = {
    requests: [],
    responses: [],
    consoleLines: [],
    pageErrors: [],
    dialogs: [],
    failed: [],
  };
  page.on('requestfailed', (request) => watched.failed.push(request.url()));
  page.on('request', (request) =>
    watched.requests.push({
      method: request.method(),
      url: request.url(),
      authorization: request.headers()['authorization'],
      ifMatch: request.headers()['if-match'],
      accept: request.headers()['accept'],
      lastEventId: request.headers()['last-event-id'],
    }),
  );
  page.on('response', (response) =>
    watched.responses.push({
      method: response.request().method(),
      url: response.url(),
      status: response.status(),
      etag: response.headers()['etag'],
    }),
  );
  page.on('console', (message) => watched.consoleLines.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return watched;
}
