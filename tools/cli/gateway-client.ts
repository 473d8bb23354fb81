import http from 'node:http';

/** Where the gateway is, from the container's environment. */
export interface GatewayAddress {
  /** http://host:port */
  url?: string;
  /** A Unix socket path, used instead of url when set. */
  socketPath?: string;
  token: string;
}

export function gatewayFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayAddress {
  const token = env.AAR_TRIAL_TOKEN;
  if (!token) throw new Error('AAR_TRIAL_TOKEN is not set: the tools command only works inside a trial');
  if (!env.AAR_GATEWAY_URL && !env.AAR_GATEWAY_SOCKET) throw new Error('neither AAR_GATEWAY_URL nor AAR_GATEWAY_SOCKET is set');
  return { url: env.AAR_GATEWAY_URL, socketPath: env.AAR_GATEWAY_SOCKET, token };
}

export interface GatewayReply {
  ok: boolean;
  tool: string;
  text: string;
  truncated: boolean;
}

/** POSTs JSON to the gateway and returns its JSON answer; HTTP errors become Errors with the gateway's message. */
export function postJson(address: GatewayAddress, path: string, body: unknown, timeoutMs: number): Promise<GatewayReply> {
  return requestJson(address, 'POST', path, JSON.stringify(body), timeoutMs) as Promise<GatewayReply>;
}

export function getJson(address: GatewayAddress, path: string, timeoutMs: number): Promise<Record<string, unknown>> {
  return requestJson(address, 'GET', path, undefined, timeoutMs) as Promise<Record<string, unknown>>;
}

function requestJson(address: GatewayAddress, method: 'GET' | 'POST', path: string, payload: string | undefined, timeoutMs: number): Promise<unknown> {
  const target = address.socketPath ? { socketPath: address.socketPath } : (() => {
    const u = new URL(address.url!);
    return { host: u.hostname, port: u.port || 80 };
  })();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...target,
        path,
        method,
        headers: {
          authorization: `Bearer ${address.token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return reject(new Error(`the gateway answered ${res.statusCode} with something that is not JSON`));
          }
          if (res.statusCode !== 200) {
            const message = (parsed as { error?: { message?: string } }).error?.message ?? text;
            return reject(new Error(`the gateway refused the call (${res.statusCode}): ${message}`));
          }
          resolve(parsed);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from the gateway within ${timeoutMs / 1000} s`)));
    req.on('error', (e) => reject(new Error(`cannot reach the tool gateway: ${e.message}`)));
    req.end(payload);

  });
}
