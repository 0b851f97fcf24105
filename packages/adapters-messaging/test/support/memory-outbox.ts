import type { PlantEventSource } from '@plantstore/adapters-messaging';
import type { PlantEvent } from '@plantstore/domain';

/** An outbox in memory: forgets a batch only when `publish` resolved, as the SQL one does. */
export class MemoryOutbox implements PlantEventSource {
  /** Batches published whose forgetting fails, as when the database goes away right after. */
  private forgetFailures = 0;

  constructor(readonly pending: PlantEvent[] = []) {}

  /** The next `count` batches are published but not forgotten: the relay publishes them again. */
  failToForget(count: number): void {
    this.forgetFailures = count;
  }

  async relay(limit: number, publish: (events: readonly PlantEvent[]) => Promise<void>): Promise<number> {
    const batch = this.pending.slice(0, limit);
    if (batch.length === 0) return 0;
    await publish(batch);
    if (this.forgetFailures > 0) {
      this.forgetFailures--;
      throw new Error('the database went away before the batch was forgotten');
    }
    this.pending.splice(0, batch.length);
    return batch.length;
  }
}
