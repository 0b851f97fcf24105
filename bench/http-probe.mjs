// One GET on a fresh connection to 127.0.0.1, for the overload bench and its prober thread.
import net from 'node:net';

/** Resolves with [status, ms]; status 0 when no answer came (refused, reset, 30 s timeout). */
export function probe(port, path) {
  return new Promise((done) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => {});
    socket.on('close', () => done([Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), performance.now() - started]));
  });
}
