import * as net from 'node:net';

/** True when a listener could bind `host:port` just now (nothing holds it). */
export function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Polls until every port can be bound on `host`; false when one is still held after `timeoutMs`. */
export async function waitForFreePorts(host: string, ports: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const free = await Promise.all(ports.map((port) => canListen(host, port)));
    if (free.every(Boolean)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True when something accepts TCP connections at `host:port` within `timeoutMs`. */
export function isServerReachable(address: string, timeoutMs = 1000): Promise<boolean> {
  const split = address.lastIndexOf(':');
  const host = address.slice(0, split).replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const port = Number(address.slice(split + 1));
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A port that was free on `host` a moment ago (the OS picks it). */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
