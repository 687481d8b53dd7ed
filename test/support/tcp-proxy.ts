import net from 'node:net';

export type ProxyMode = 'up' | 'down' | 'paused';

/**
 * A TCP proxy in front of PostgreSQL or Redis that a test can break without touching the shared servers:
 * 'down' closes every connection and refuses new ones (a stopped server), 'paused' accepts and holds bytes
 * without forwarding them (a frozen server), 'up' forwards again (held bytes are dropped with their connections).
 */
export async function startTcpProxy(target: {
  host: string;
  port: number;
}): Promise<{ port: number; setMode(mode: ProxyMode): void; close(): Promise<void> }> {
  let mode: ProxyMode = 'up';
  const closePair = (p: { client: net.Socket; upstream: net.Socket }) => {
    p.client.destroy();
    p.upstream.destroy();
  };
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    if (mode === 'down') return client.destroy();
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (d) => mode === 'up' && upstream.write(d));
    upstream.on('data', (d) => mode === 'up' && client.write(d));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as net.AddressInfo).port,
    setMode(next) {
      // Leaving 'paused' or entering 'down': connections that lost bytes cannot be trusted, close them.
      if (next === 'down' || (mode === 'paused' && next === 'up')) for (const p of [...pairs]) closePair(p);
      mode = next;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const p of [...pairs]) closePair(p);
        server.close(() => r());
      }),
  };
}
