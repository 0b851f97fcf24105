import { connect, createServer, type Server, type Socket } from 'node:net';

/** Where a cut falls: the request never reaches the server, or its answer never leaves the proxy. */
export type CutPoint = 'before-request' | 'after-answer';

interface Connection {
  readonly client: Socket;
  readonly upstream: Socket;
}

interface PendingCut {
  readonly at: CutPoint;
  readonly crash: () => Promise<void>;
  readonly done: (run: Promise<void>) => void;
}

/**
 * A TCP forwarder on 127.0.0.1 in front of a real server, to make that server fail the ways a
 * network or a crash does, without touching it:
 * - close(): stop listening and cut every connection: new ones are refused, open ones reset
 *   (a stopped database);
 * - blackHole(): keep every connection open but forward nothing, and accept new ones that
 *   never answer (a partition, or a failover whose old address went silent);
 * - cutNextExchange(): make one call's outcome unknown to its client, as a crash does: the
 *   next request is dropped, or handled with its answer withheld; `crash` (which kills, and
 *   may restart, the server) runs at that moment, then the client's connection is cut.
 * open() forwards new connections again (on the same port); connections black-holed before
 * stay silent until close(), as they would after a failover.
 */
export class TcpProxy {
  private server: Server | undefined;
  private forwarding = false;
  private readonly sockets = new Set<Socket>();
  private readonly forwarded = new Set<Connection>();
  private pendingCut: PendingCut | undefined;
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
      client.pause();
      upstream.pause();
    }
    this.forwarded.clear();
  }

  /** Arms one cut, on whichever connection next carries a request (or an answer); resolves once `crash` has run. */
  cutNextExchange(at: CutPoint, crash: () => Promise<void>): Promise<void> {
    return new Promise<Promise<void>>((done) => (this.pendingCut = { at, crash, done })).then((run) => run);
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
    const connection = { client, upstream };
    this.forwarded.add(connection);
    // Either side ending or failing ends the other: its peer sees a cut connection, nothing hangs.
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('end', () => to.end());
      from.on('close', () => {
        to.destroy();
        this.forwarded.delete(connection);
      });
    }
    client.on('data', (chunk: Buffer) => this.pass(chunk, 'before-request', connection, upstream));
    upstream.on('data', (chunk: Buffer) => this.pass(chunk, 'after-answer', connection, client));
  }

  private pass(chunk: Buffer, point: CutPoint, connection: Connection, to: Socket): void {
    const cut = this.pendingCut;
    if (cut === undefined || cut.at !== point) {
      to.write(chunk);
      return;
    }
    this.pendingCut = undefined;
    connection.client.pause();
    connection.upstream.pause();
    // The server dies first, so nothing of this exchange can reach the client afterwards.
    cut.done(
      cut.crash().finally(() => {
        connection.client.destroy();
        connection.upstream.destroy();
      }),
    );
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    // A reset on a silent socket must not become an unhandled 'error' in the test process.
    socket.on('error', () => socket.destroy());
  }
}
