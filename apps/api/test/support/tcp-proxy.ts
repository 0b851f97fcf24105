import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder on 127.0.0.1 in front of a real server, to make that server fail in the
 * two ways a network does, without touching it:
 * - close(): stop listening and cut every connection: new ones are refused, open ones reset
 *   (a stopped database);
 * - blackHole(): keep every connection open but forward nothing, and accept new ones that
 *   never answer (a partition, or a failover whose old address went silent).
 * open() forwards new connections again (on the same port); connections black-holed before
 * stay silent until close(), as they would after a failover.
 */
export class TcpProxy {
  private server: Server | undefined;
  private forwarding = false;
  private readonly sockets = new Set<Socket>();
  private readonly forwarded = new Set<{ client: Socket; upstream: Socket }>();
  private listenPort = 0;

  constructor(private readonly target: { readonly host: string; readonly port: number }) {}

  get port(): number {
    return this.listenPort;
  }

  /** Forwards new connections, listening on its previous port (a free one the first time). */
  async open(): Promise<void> {
    this.forwarding = true;
    if (this.server !== undefined) return;
    const server = createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address === 'object' && address !== null) this.listenPort = address.port;
        resolve();
      });
    });
  }

  /** From now on nothing passes, in either direction, on any connection; none is closed. */
  blackHole(): void {
    this.forwarding = false;
    for (const { client, upstream } of this.forwarded) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    this.forwarded.clear();
  }

  /** Stops listening and destroys every connection; resolves once the port is free. */
  close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.forwarding = false;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.forwarded.clear();
    if (server === undefined) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.track(client);
    if (!this.forwarding) {
      client.pause(); // accepted, never answered
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    // Either side failing ends both: the other peer sees a cut connection, nothing hangs.
    for (const socket of [client, upstream]) {
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const pair = { client, upstream };
    this.forwarded.add(pair);
    client.on('close', () => this.forwarded.delete(pair));
    client.pipe(upstream).pipe(client);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    // A reset on a silent socket must not become an unhandled 'error' in the test process.
    socket.on('error', () => socket.destroy());
  }
}
