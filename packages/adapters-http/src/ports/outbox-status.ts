export interface OutboxBacklog {
  readonly events: number;
  readonly oldestCreatedAt: Date | undefined;
}

export interface OutboxRelayCounts {
  readonly published: number;
  readonly duplicates: number;
  readonly failures: number;
}

/** What the metrics read of the PlantCreated outbox and this instance's relay. */
export interface OutboxStatus {
  backlog(): Promise<OutboxBacklog>;
  counts(): OutboxRelayCounts;
}
