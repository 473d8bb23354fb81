import net from 'node:net';

/**
 * `tools --forward PORT SOCKET`: the trial container's first process. Containers run without a network;
 * this relays 127.0.0.1:PORT inside the container to the gateway's Unix socket mounted from the host, so
 * agents that need an HTTP base URL (model APIs) reach the gateway and nothing else.
 */
export function forward(port: number, socketPath: string): Promise<number> {
  if (!Number.isInteger(port) || !socketPath) {
    process.stderr.write('usage: tools --forward PORT SOCKET\n');
    return Promise.resolve(2);
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.pipe(upstream).pipe(client);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  return new Promise((resolve) => {
    server.on('error', (e) => {
      process.stderr.write(`tools --forward: ${e.message}\n`);
      resolve(1);
    });
    server.listen(port, '127.0.0.1');
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => resolve(0)));
  });
}
