import net from 'node:net';

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

/** The status and body of an HTTP/1.0 answer (the gateway closes the connection after it, and never chunks one). */
function parseAnswer(raw: Buffer): { status: number; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw.subarray(0, 16).toString('latin1'))?.[1] ?? 0);
  return { status, body: end < 0 ? '' : raw.subarray(end + 4).toString('utf8') };
}

/**
 * One request, written by hand over a plain socket as HTTP/1.0: Node's http client costs a short-lived
 * process about 20 ms to set up on its first request, and every `tools` call is a short-lived process.
 */
function requestJson(address: GatewayAddress, method: 'GET' | 'POST', path: string, payload: string | undefined, timeoutMs: number): Promise<unknown> {
  const url = address.socketPath ? undefined : new URL(address.url!);
  const body = payload === undefined ? undefined : Buffer.from(payload);
  const head =
    `${method} ${path} HTTP/1.0\r\nHost: ${url?.host ?? 'gateway'}\r\nAuthorization: Bearer ${address.token}\r\n` +
    (body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : '') +
    '\r\n';
  return new Promise((resolve, reject) => {
    const socket = url ? net.connect(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, '')) : net.connect(address.socketPath!);
    const chunks: Buffer[] = [];
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`no answer from the gateway within ${timeoutMs / 1000} s`)));
    socket.on('error', (e) => fail(new Error(`cannot reach the tool gateway: ${e.message}`)));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const { status, body: text } = parseAnswer(Buffer.concat(chunks));
      if (!status) return reject(new Error('cannot reach the tool gateway: the connection closed without an answer'));
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return reject(new Error(`the gateway answered ${status} with something that is not JSON`));
      }
      if (status !== 200) {
        const message = (parsed as { error?: { message?: string } }).error?.message ?? text;
        return reject(new Error(`the gateway refused the call (${status}): ${message}`));
      }
      resolve(parsed);
    });
    socket.write(body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : head);
  });
}
