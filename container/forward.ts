import net from 'node:net';

/** `PORT` (on 127.0.0.1) or `HOST:PORT`. */
function listenAddress(spec: string): { host: string; port: number } | null {
  const m = /^(?:(.+):)?(\d+)$/.exec(spec);
  return m ? { host: m[1] ?? '127.0.0.1', port: Number(m[2]) } : null;
}

/** A Unix socket path, or `HOST:PORT` of a TCP relay (swarm: the gateway's relay on the trial network). */
const connectTo = (target: string): net.Socket => {
  const m = /^([^/]+):(\d+)$/.exec(target);
  return m ? net.connect(Number(m[2]), m[1]) : net.connect(target);
};

/**
 * `tools --forward [HOST:]PORT TARGET`: the trial container's first process. Containers run without a
 * network; this relays 127.0.0.1:PORT inside the container to the gateway's Unix socket mounted from the
 * host (or, on swarm, to the gateway's relay), so agents that need an HTTP base URL reach the gateway and
 * nothing else. The swarm relay itself runs it as `0.0.0.0:PORT SOCKET`.
 */
export function forward(listen: string, target: string): Promise<number> {
  const address = listenAddress(listen ?? '');
  if (!address || !target) {
    process.stderr.write('usage: tools --forward [HOST:]PORT SOCKET|HOST:PORT\n');
    return Promise.resolve(2);
  }
  const server = startForward(address, target);
  return new Promise((resolve) => {
    server.on('error', (e) => {
      process.stderr.write(`tools --forward: ${e.message}\n`);
      resolve(1);
    });
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => resolve(0)));
  });
}

export function startForward(address: { host: string; port: number }, target: string): net.Server {
  const server = net.createServer((client) => {
    const upstream = connectTo(target);
    client.pipe(upstream).pipe(client);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  server.listen(address.port, address.host);
  return server;
}
