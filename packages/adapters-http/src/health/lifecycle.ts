/** Whether the process is draining: readiness turns 503 and new requests are refused. */
export class Lifecycle {
  private draining = false;

  get isDraining(): boolean {
    return this.draining;
  }

  beginShutdown(): void {
    this.draining = true;
  }
}
