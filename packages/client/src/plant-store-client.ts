import { feedCursorOf, nextTarget, readChangesPage, readPlant, readPlantList, readPlantWithEtag } from './answers.js';
import { ChangeFollower, type FollowChangesOptions } from './change-follower.js';
import { clientSettings, type PlantStoreClientOptions } from './client-options.js';
import { idLiteral, type PlantId } from './plant-id.js';
import type {
  ChangesPage,
  ChangesQuery,
  FollowedChanges,
  ListedPlant,
  ListedPlantPage,
  ListPlantsQuery,
  NewPlant,
  Plant,
  PlantChange,
  PlantWithEtag,
} from './plant-types.js';
import {
  changesSearchParams,
  checkFollowOptions,
  ifMatchHeader,
  listSearchParams,
  newPlantBody,
  plantChangeBody,
} from './requests.js';
import { RetryingTransport, type CallOptions, type ConditionalCallOptions } from './retrying-transport.js';

interface Page {
  readonly plants: ListedPlantPage;
  readonly next: URL | undefined;
}

/**
 * A client for the Plant Store API that works wherever `fetch` does (browsers, Node, Deno, Bun).
 * Ids travel exactly; every failure is a typed error; a call whose answer was lost, or that the
 * server answered "not now", is repeated until its deadline, which is safe because every call
 * of the API can be repeated without doing twice what it does.
 */
export class PlantStoreClient {
  private readonly plantsUrl: URL;
  private readonly transport: RetryingTransport;
  private readonly follower: ChangeFollower;

  constructor(options: PlantStoreClientOptions) {
    const { plantsUrl, transport } = clientSettings(options);
    this.plantsUrl = plantsUrl;
    this.transport = new RetryingTransport(transport);
    this.follower = new ChangeFollower(transport, new URL('plants/changes', plantsUrl), (query, signal) =>
      this.changesPage(query, signal === undefined ? {} : { signal }),
    );
  }

  /**
   * POST /plants. Resolves with the stored plant (created now, or earlier by an identical
   * create); rejects with a PlantStoreApiError for an Error body (409 40901 when the id holds
   * another plant, 409 40902 when it belonged to a deleted one).
   */
  async createPlant(plant: NewPlant, call: CallOptions = {}): Promise<Plant> {
    const body = newPlantBody(plant);
    return await this.transport.send(
      { method: 'POST', url: this.plantsUrl, body, successStatus: 200, read: (_, text) => readPlant(text) },
      call,
    );
  }

  /**
   * GET /plants/{id}: the plant exactly as the create answered it (no id) and its ETag. Rejects
   * with a PlantStoreApiError 404 (40402) when no plant ever had the id, a PlantStoreGoneError
   * (410, 41001) when it was deleted.
   */
  async getPlant(id: PlantId, call: CallOptions = {}): Promise<PlantWithEtag> {
    return await this.transport.send(
      { method: 'GET', url: this.plantUrl(id), successStatus: 200, read: readPlantWithEtag },
      call,
    );
  }

  /**
   * PUT /plants/{id}: replaces the plant's name and tag (a change without `tag` removes it) and
   * resolves with the plant as now stored and its new ETag. With `ifMatch`, only if the plant
   * is still that version: otherwise a PlantStorePreconditionFailedError (412, 41201) and
   * nothing changes. Never creates: 404 (40402) for an id never used, PlantStoreGoneError for a
   * deleted plant.
   */
  async updatePlant(id: PlantId, change: PlantChange, call: ConditionalCallOptions = {}): Promise<PlantWithEtag> {
    const url = this.plantUrl(id);
    const body = plantChangeBody(change);
    const headers = ifMatchHeader(call.ifMatch);
    return await this.transport.send(
      { method: 'PUT', url, body, headers, successStatus: 200, read: readPlantWithEtag },
      call,
    );
  }

  /**
   * DELETE /plants/{id}: deletes the plant and retires its id for good. Resolves also when it
   * was already deleted. With `ifMatch`, only if the plant is still that version (else 412,
   * PlantStorePreconditionFailedError); 404 (40402) for an id never used.
   */
  async deletePlant(id: PlantId, call: ConditionalCallOptions = {}): Promise<void> {
    const url = this.plantUrl(id);
    const headers = ifMatchHeader(call.ifMatch);
    await this.transport.send({ method: 'DELETE', url, headers, successStatus: 204, read: () => undefined }, call);
  }

  /**
   * GET /plants, every page: yields every plant (tagged with one of `tags`, and whose name
   * contains `name`, case- and accent-insensitively, when given) in
   * ascending id order, fetching the next page as the loop asks for it. A walk sees every
   * plant that stays for the whole walk exactly once. Ids are exact bigints. `call` applies to
   * each page's request.
   */
  async *listPlants(query: ListPlantsQuery = {}, call: CallOptions = {}): AsyncGenerator<ListedPlant> {
    for await (const page of this.listPlantPages(query, call)) yield* page;
  }

  /**
   * The same walk a page at a time: each page as the server sent it (the last may be empty),
   * with the change feed's cursor taken before it was read, `feedCursor`.
   */
  async *listPlantPages(query: ListPlantsQuery = {}, call: CallOptions = {}): AsyncGenerator<ListedPlantPage> {
    let url: URL | undefined = new URL(this.plantsUrl);
    url.search = listSearchParams(query).toString();
    while (url !== undefined) {
      const page: Page = await this.transport.send(
        { method: 'GET', url, successStatus: 200, read: (response, text) => this.readPage(response, text) },
        call,
      );
      yield page.plants;
      url = page.next;
    }
  }

  /**
   * GET /plants/changes: one page of the change feed, the plants changed after the cursor
   * `after` (from the beginning when absent) at their state now, deletions included, and
   * `next`, the cursor to ask with next time. A cursor stays valid for ever; one the store
   * cannot have issued is a PlantStoreApiError 400 (40004).
   */
  async changesPage(query: ChangesQuery = {}, call: CallOptions = {}): Promise<ChangesPage> {
    const url = new URL('plants/changes', this.plantsUrl);
    url.search = changesSearchParams(query).toString();
    return await this.transport.send(
      { method: 'GET', url, successStatus: 200, read: (_, text) => readChangesPage(text) },
      call,
    );
  }

  /**
   * Follows the change feed for as long as the loop runs: the pages after `after` until it has
   * caught up (the batch with `caughtUp` true, empty on an empty store), then each change as it
   * commits, over Server-Sent Events. A dropped stream is opened again from the last cursor,
   * so nothing is missed or seen twice. Ends only with `break`, the signal, or an error (an
   * outage past `defaultDeadlineMs`, a revoked token…).
   */
  followChanges(options: FollowChangesOptions = {}): AsyncGenerator<FollowedChanges, never> {
    const limit = checkFollowOptions(options);
    return this.follower.follow(options, limit);
  }

  private plantUrl(id: PlantId): URL {
    return new URL(`plants/${idLiteral(id)}`, this.plantsUrl);
  }

  /**
   * A page and where the next one is. Only the query of `Link: <…>; rel="next"` is taken: it
   * is applied to this client's own /plants URL, so a base path (a proxy's prefix) is kept.
   */
  private readPage(response: Response, text: string): Page {
    const plants = Object.defineProperty(readPlantList(text), 'feedCursor', {
      value: feedCursorOf(response.headers.get('feed-cursor')),
      enumerable: false,
    }) as ListedPlantPage;
    const target = nextTarget(response.headers.get('link'));
    if (target === undefined) return { plants, next: undefined };
    const next = new URL(this.plantsUrl);
    next.search = new URL(target, this.plantsUrl).search;
    return { plants, next };
  }
}
