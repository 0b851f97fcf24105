import type { PlantEventSource } from '@plantstore/adapters-messaging';
import type { PlantCreated } from '@plantstore/domain';

/** An outbox in memory: forgets a batch only when `publish` resolved, as the SQL one does. */
export class MemoryOutbox implements PlantEventSource {
  constructor(readonly pending: PlantCreated[] = []) {}

  async relay(limit: number, publish: (events: readonly PlantCreated[]) => Promise<void>): Promise<number> {
    const batch = this.pending.slice(0, limit);
    if (batch.length === 0) return 0;
    await publish(batch);
    this.pending.splice(0, batch.length);
    return batch.length;
  }
}
