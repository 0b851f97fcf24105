import request from 'supertest';

/** One plant as a follower's copy holds it, and as the table says it should be. */
export type CopiedPlant =
  | { readonly version: number; readonly name: string; readonly tag?: string }
  | { readonly version: number; readonly deleted: true };

type Entry = { readonly id: string } & CopiedPlant;

/**
 * JSON of the feed with every id kept as exact decimal text (JSON.parse would round it). A
 * name cannot hold `"id":` unescaped, so only the members are rewritten.
 */
export function parseExact<T>(json: string): T {
  return JSON.parse(json.replace(/"id":(-?\d+)/g, '"id":"$1"')) as T;
}

/**
 * A follower's copy of the catalogue, kept as docs/changes.md says: each entry applied by id,
 * the higher version kept. It records any entry that would move a plant back.
 */
export class FeedCopy {
  readonly plants = new Map<string, CopiedPlant>();
  readonly wentBack: string[] = [];

  /** Applies one entry, given as its JSON (an event's data). */
  apply(json: string): void {
    this.applyEntry(parseExact<Entry>(json));
  }

  applyEntry({ id, ...plant }: Entry): void {
    const held = this.plants.get(id);
    if (held !== undefined && (plant.version < held.version || ('deleted' in held && !('deleted' in plant))))
      this.wentBack.push(`${id}: ${JSON.stringify(held)} then ${JSON.stringify(plant)}`);
    if (held === undefined || plant.version >= held.version) this.plants.set(id, plant);
  }
}

/** Reads JSON pages from `after` (the beginning when absent) until an empty one; answers the cursor to go on from. */
export async function readPages(
  url: string,
  token: string,
  copy: FeedCopy,
  after?: string,
  limit = 1000,
): Promise<string> {
  let cursor = after;
  for (;;) {
    const query = `limit=${limit}${cursor === undefined ? '' : `&after=${cursor}`}`;
    const res = await request(url).get(`/plants/changes?${query}`).set('Authorization', `Bearer ${token}`);
    if (res.status !== 200) throw new Error(`GET /plants/changes?${query}: ${res.status} ${res.text}`);
    const page = parseExact<{ changes: Entry[]; next: string }>(res.text);
    for (const entry of page.changes) copy.applyEntry(entry);
    cursor = page.next;
    if (page.changes.length === 0) return cursor;
  }
}

/** The plant table as a copy must end: live rows with name, tag and version, tombstones as deleted. */
export function copyOfTable(
  rows: ReadonlyArray<{ id: string; name: string | null; tag: string | null; version: number | string }>,
): Map<string, CopiedPlant> {
  return new Map(
    rows.map(({ id, name, tag, version }) => [
      id,
      name === null
        ? { version: Number(version), deleted: true as const }
        : { version: Number(version), name, ...(tag === null ? {} : { tag }) },
    ]),
  );
}

/** The query that reads the plant table for copyOfTable, on either engine. */
export const PLANT_TABLE_QUERY = 'SELECT CAST(id AS TEXT) AS id, name, tag, version FROM plant ORDER BY id';
