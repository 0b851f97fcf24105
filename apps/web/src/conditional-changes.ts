import type { PlantChange, PlantStoreClient, PlantWithEtag } from '@plantstore/client';
import { plantStateOf } from './failure-text.js';

/** The calls a change makes; PlantStoreClient in the page. */
export type PlantCalls = Pick<PlantStoreClient, 'getPlant' | 'updatePlant' | 'deletePlant'>;

/** What the page passes with each call: the view's signal and the person's deadline. */
export interface CallOptions {
  readonly signal: AbortSignal;
  readonly deadline: number;
}

/**
 * Where an edit ended: saved; or not saved because the plant changed since it was read (with the
 * plant as it is now, for the person to decide), or because it was deleted meanwhile.
 */
export type SaveOutcome =
  | { readonly outcome: 'saved'; readonly stored: PlantWithEtag }
  | { readonly outcome: 'changed'; readonly current: PlantWithEtag }
  | { readonly outcome: 'deleted' };

/** Where a delete ended: deleted (by this call or another), or not, because the plant changed since it was read. */
export type DeleteOutcome =
  { readonly outcome: 'deleted' } | { readonly outcome: 'changed'; readonly current: PlantWithEtag };

/**
 * Saves `change` only if the plant is still the version `etag` names, so that nobody's change
 * is overwritten unseen. When it changed (412), reads it again: the person decides with the
 * plant as it is now in front of them. Any other failure rejects.
 */
export async function saveChange(
  client: PlantCalls,
  id: bigint,
  change: PlantChange,
  etag: string,
  call: CallOptions,
): Promise<SaveOutcome> {
  try {
    return { outcome: 'saved', stored: await client.updatePlant(id, change, { ...call, ifMatch: etag }) };
  } catch (error) {
    if (plantStateOf(error) === 'deleted') return { outcome: 'deleted' };
    return await readAgain(client, id, error, call);
  }
}

/**
 * Deletes the plant only if it is still the version `etag` names: the person confirmed the
 * deletion of what they saw, not of what someone made of it since. A plant deleted already is
 * deleted (the API answers a repeated delete alike).
 */
export async function deleteIfUnchanged(
  client: PlantCalls,
  id: bigint,
  etag: string,
  call: CallOptions,
): Promise<DeleteOutcome> {
  try {
    await client.deletePlant(id, { ...call, ifMatch: etag });
    return { outcome: 'deleted' };
  } catch (error) {
    return await readAgain(client, id, error, call);
  }
}

/** After a 412, the plant as it is now; deleted if it went in the meantime. Any other failure is rethrown. */
async function readAgain(
  client: PlantCalls,
  id: bigint,
  failure: unknown,
  call: CallOptions,
): Promise<{ readonly outcome: 'changed'; readonly current: PlantWithEtag } | { readonly outcome: 'deleted' }> {
  if (plantStateOf(failure) !== 'changed') throw failure;
  try {
    return { outcome: 'changed', current: await client.getPlant(id, call) };
  } catch (error) {
    if (plantStateOf(error) === 'deleted') return { outcome: 'deleted' };
    throw error;
  }
}
