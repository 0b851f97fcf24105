import { Plant, type NewPlantInput } from '../../plants/plant.js';
import type { InsertOutcome } from '../../plants/plant-repository.js';

/**
 * One named check of a port contract. Any test runner can run it: it resolves when the
 * implementation holds to the contract and rejects with a ContractViolation saying how it
 * does not. With jest or vitest: `for (const c of checks) it(c.name, c.run)`.
 */
export interface ContractCheck {
  readonly name: string;
  readonly run: () => Promise<void>;
}

/** A port implementation broke its contract; the message says what was expected and what came. */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

export function ensure(condition: boolean, message: string): void {
  if (!condition) throw new ContractViolation(message);
}

/** Compares plain forms (plants as toJSON, dates as ISO text, bigints and undefined spelled out). */
export function ensureEqual(actual: unknown, expected: unknown, what: string): void {
  const [shownActual, shownExpected] = [show(actual), show(expected)];
  if (shownActual !== shownExpected)
    throw new ContractViolation(`${what}: expected ${shownExpected}, got ${shownActual}`);
}

export async function ensureRejects(attempt: () => Promise<unknown>, what: string): Promise<void> {
  try {
    await attempt();
  } catch {
    return;
  }
  throw new ContractViolation(`${what}: expected a rejection, but it resolved`);
}

export function show(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return `${v}n`;
      if (v === undefined) return '<undefined>';
      // Keys sorted, so that two objects with the same fields compare equal whatever their order.
      if (v !== null && typeof v === 'object' && !Array.isArray(v))
        return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)));
      return v;
    }) ?? '<undefined>'
  );
}

/** An outcome as plain data: `"inserted"`, `"retired"`, or the stored plant's plain form. */
export function outcomeOf(outcome: InsertOutcome | undefined): unknown {
  if (outcome === undefined) return '<no outcome>';
  if (outcome.inserted) return 'inserted';
  return 'retired' in outcome ? 'retired' : { existing: outcome.existing.toJSON() };
}

export function plant(input: NewPlantInput): Plant {
  const parsed = Plant.parse(input);
  if (!parsed.ok) throw new Error(`contract suite bug: ${show(parsed.violations)}`);
  return parsed.plant;
}
