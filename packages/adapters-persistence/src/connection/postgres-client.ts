import pg from 'pg';

/**
 * A node-postgres client class whose queries have a deadline; when one passes, the connection
 * is cut, and so is every idle connection of the same pool.
 *
 * pg's own `query_timeout` rejects a query the server never answers but keeps the connection,
 * with that query still pending, in the pool. After a network partition or a failover no FIN
 * or RST ever arrives on such connections, so every later query handed one of them waits the
 * full timeout: the service answers 503 for as long as the kernel keeps the dead sockets
 * (many minutes) and does not recover by itself. Cutting the socket instead (as pg-pool does
 * for a connect timeout) fails the query with "Connection terminated unexpectedly" and makes
 * the client report an error, on which the pool drops it.
 *
 * No answer at all, not even the server's own statement_timeout error, means the path to the
 * server is broken, and the idle connections opened over it are most likely dead too: they
 * are cut at the same time, so that the next requests open fresh connections instead of each
 * discovering one dead connection after a full deadline. Connections with a query in flight
 * keep their own deadline. The deadline must exceed the server's statement_timeout, so that
 * a slow but live server answers with its own timeout error first and keeps its connections.
 */
export function clientWithQueryDeadline(deadlineMs: number): typeof pg.Client {
  // One class per pool: `clients` is that pool's connections.
  const clients = new Set<DeadlineClient>();

  class DeadlineClient extends pg.Client {
    private inFlight = 0;
    private ready = false;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      clients.add(this);
      this.once('connect', () => (this.ready = true));
      this.once('end', () => clients.delete(this));
    }

    // pg's query() has many overloads; only the promise form (the one TypeORM uses) gets a
    // deadline, callback and submittable forms pass through unchanged.
    override query(...args: unknown[]): never {
      const pending = (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
      if (!(pending instanceof Promise)) return pending as never;
      this.inFlight++;
      const timer = setTimeout(() => {
        for (const client of clients) if (client === this || (client.ready && client.inFlight === 0)) client.cut();
      }, deadlineMs);
      return pending.finally(() => {
        clearTimeout(timer);
        this.inFlight--;
      }) as never;
    }

    private cut(): void {
      clients.delete(this);
      this.connection.stream.destroy();
    }
  }

  return DeadlineClient;
}
