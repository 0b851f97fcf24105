import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder on 127.0.0.1 in front of a server, which once makes a call's outcome
 * unknown to its client, the way a crash does:
 * - 'before-request': the first request never reaches the server;
 * - 'after-answer': the first request is handled (a 200 means committed) but its answer is
 *   never passed on.
 * At that moment it runs `crash` (which kills, and may restart, the server) and cuts the
 * client's connection. Every later connection is forwarded to the same target port.
 */
export class AnswerCuttingProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private cut = false;
  /** Resolves with `crash`'s outcome once the cut has happened. */
  readonly crashed: Promise<void>;
  private crashedNow: (run: Promise<void>) => void = () => undefined;

  constructor(
    private readonly targetPort: number,
    private readonly when: 'before-request' | 'after-answer',
    private readonly crash: () => Promise<void>,
  ) {
    this.crashed = new Promise<Promise<void>>((resolve) => (this.crashedNow = resolve)).then((run) => run);
    this.server = createServer((client) => this.accept(client));
  }

  listen(): Promise<number> {
    return new Promise((done, fail) => {
      this.server.once('error', fail);
      this.server.listen(0, '127.0.0.1', () => {
        const address = this.server.address();
        done(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((done) => this.server.close(() => done()));
  }

  private accept(client: Socket): void {
    this.track(client);
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.track(upstream);
    for (const socket of [client, upstream])
      socket.on('close', () => (socket === client ? upstream : client).destroy());
    client.on('data', (chunk: Buffer) => {
      if (!this.cut && this.when === 'before-request') return this.cutNow(client, upstream);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!this.cut && this.when === 'after-answer') return this.cutNow(client, upstream);
      client.write(chunk);
    });
  }

  private cutNow(client: Socket, upstream: Socket): void {
    this.cut = true;
    client.pause();
    upstream.pause();
    // The server dies first, so nothing of this exchange can reach the client afterwards.
    const run = this.crash().finally(() => {
      client.destroy();
      upstream.destroy();
    });
    this.crashedNow(run);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }
}
