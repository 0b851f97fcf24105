import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { plantEventFromJSON, type PlantEvent } from '@plantstore/domain';
import { PlantCatalogue } from '../../../../examples/plant-catalogue/src/index.js';

/*
 * The example consumer's apply rule, without a broker: an event is applied only on top of the
 * version before it, once per event id, and a deleted plant stays deleted whatever comes late.
 */

const ID = '9223372036854775807';
const AT = '2026-11-01T10:00:00.000Z';

const created = (name: string) =>
  plantEventFromJSON({ type: 'PlantCreated', eventId: randomUUID(), plantId: ID, version: 1, name, createdAt: AT });
const updated = (version: number, name: string, tag?: string) =>
  plantEventFromJSON({
    type: 'PlantUpdated',
    eventId: randomUUID(),
    plantId: ID,
    version,
    name,
    ...(tag === undefined ? {} : { tag }),
    updatedAt: AT,
  });
const deleted = (version: number) =>
  plantEventFromJSON({ type: 'PlantDeleted', eventId: randomUUID(), plantId: ID, version, deletedAt: AT });

let directory: string;
let catalogue: PlantCatalogue;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'plantstore-catalogue-rule-'));
  catalogue = new PlantCatalogue(join(directory, 'catalogue.sqlite'));
});

afterEach(() => {
  catalogue.close();
  rmSync(directory, { recursive: true, force: true });
});

function applyAll(events: readonly PlantEvent[]): string[] {
  return events.map((event) => catalogue.apply(event));
}

describe('the plant catalogue applies the events of a plant in version order', () => {
  it('holds back an update that arrives before the create, and applies it once the create is in', () => {
    const [v1, v2] = [created('Aloe'), updated(2, 'Aloe vera', 'succulent')];
    expect(applyAll([v2])).toEqual(['early']);
    expect(catalogue.plants()).toEqual([]);
    expect(applyAll([v1, v2])).toEqual(['applied', 'applied']);
    expect(catalogue.plants()).toEqual([{ id: ID, name: 'Aloe vera', tag: 'succulent', version: 2 }]);
  });

  it('ignores a redelivered event, even after newer versions', () => {
    const [v1, v2, v3] = [created('Aloe'), updated(2, 'Aloe vera', 'succulent'), updated(3, 'Aloe')];
    expect(applyAll([v1, v2, v1, v3, v2, v3])).toEqual([
      'applied',
      'applied',
      'duplicate',
      'applied',
      'duplicate',
      'duplicate',
    ]);
    expect(catalogue.plants()).toEqual([{ id: ID, name: 'Aloe', tag: null, version: 3 }]);
  });

  it('keeps a deleted plant deleted when its create or an update comes again late', () => {
    const [v1, v2, v3] = [created('Aloe'), updated(2, 'Aloe vera'), deleted(3)];
    // The deletion overtakes the update: it waits for it.
    expect(applyAll([v1, v3, v2, v3])).toEqual(['applied', 'early', 'applied', 'applied']);
    expect(applyAll([v2, v1, v3])).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect(catalogue.plants()).toEqual([]);
    expect(catalogue.count()).toBe(0);
  });

  it('stops at a version that comes under a second event id', () => {
    applyAll([created('Aloe'), updated(2, 'Aloe vera')]);
    expect(() => catalogue.apply(updated(2, 'Aloe vera'))).toThrow(/second event id/);
    expect(() => catalogue.apply(created('Aloe'))).toThrow(/second event id/);
    expect(catalogue.plants()).toEqual([{ id: ID, name: 'Aloe vera', tag: null, version: 2 }]);
  });

  it('keeps what it applied across a reopen of its file', () => {
    const [v1, v2] = [created('Aloe'), updated(2, 'Aloe vera')];
    applyAll([v1, v2]);
    catalogue.close();
    catalogue = new PlantCatalogue(join(directory, 'catalogue.sqlite'));
    expect(applyAll([v2, deleted(3)])).toEqual(['duplicate', 'applied']);
    expect(catalogue.plants()).toEqual([]);
  });
});
