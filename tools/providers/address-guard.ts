import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Which network addresses a request whose target an agent chose may connect to: public unicast addresses
 * only, unless an entry of the job's allow-list (`tools.allow_addresses`) names the address (and port).
 * Loopback, private, link-local, multicast, unspecified, carrier-grade NAT, documentation and every other
 * special range are refused, however the address is spelled (an IPv4-mapped IPv6 address is its IPv4).
 */

interface AllowEntry {
  /** The entry as written, for messages. */
  text: string;
  range: [ipaddr.IPv4 | ipaddr.IPv6, number];
  /** Unset: any port. */
  port?: number;
}

/** A refused target: its message is what the agent sees after "fetching <url> failed: ". */
export class AddressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

/** An address in its canonical form (IPv4-mapped IPv6 as IPv4), or undefined when the text is not one. */
function canonical(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  return isIP(bare) ? ipaddr.process(bare) : undefined;
}

/**
 * One allow-list entry: an address or CIDR range, optionally with a port: `10.0.0.5`, `10.0.0.0/8`,
 * `10.0.0.5:8080`, `fd00::/8`, `[::1]:8080`. Throws with a one-line message naming the entry.
 */
export function parseAllowEntry(text: string): AllowEntry {
  const t = text.trim();
  // [IPv6](/prefix)(:port), IPv4(/prefix)(:port), or a bare IPv6(/prefix), whose colons leave no room for a port.
  const m = /^\[([^\]]+)\](?:\/(\d+))?(?::(\d+))?$/.exec(t) ?? /^([\d.]+)(?:\/(\d+))?(?::(\d+))?$/.exec(t) ?? /^([0-9a-fA-F:.]+)(?:\/(\d+))?()$/.exec(t);
  const address = m ? canonical(m[1]) : undefined;
  if (!m || !address) throw new Error(`"${text}" is not an address, a CIDR range (10.0.0.0/8) or an address with a port (10.0.0.5:8080, [::1]:8080)`);
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  const prefix = m[2] === undefined ? bits : Number(m[2]);
  if (prefix > bits) throw new Error(`"${text}": a prefix of /${prefix} is longer than the address`);
  const port = m[3] ? Number(m[3]) : undefined;
  if (port !== undefined && (port < 1 || port > 65535)) throw new Error(`"${text}": port ${port} is out of range`);
  return { text, range: [address, prefix], ...(port === undefined ? {} : { port }) };
}

export class AddressPolicy {
  private readonly allowed: AllowEntry[];

  /** `allow`: entries of `tools.allow_addresses` (parseAllowEntry's forms). */
  constructor(allow: readonly string[] = []) {
    this.allowed = allow.map(parseAllowEntry);
  }

  /** Why a connection to this address and port is refused, or undefined when it may go ahead. */
  refusal(address: string, port: number): string | undefined {
    const ip = canonical(address);
    if (!ip) return `${address} is not an IP address`;
    const kind = ip.range();
    if (kind === 'unicast') return undefined;
    for (const entry of this.allowed) {
      const [base, bits] = entry.range;
      if (base.kind() === ip.kind() && ip.match(base as never, bits) && (entry.port === undefined || entry.port === port)) return undefined;
    }
    return `${ip.toString()} is a ${kind} address, not a public one (the job's tools.allow_addresses can allow it)`;
  }

  /** Throws AddressRefusedError when the connection is refused. */
  check(address: string, port: number, what: string): void {
    const why = this.refusal(address, port);
    if (why) throw new AddressRefusedError(`refused to connect to ${what}: ${why}`);
  }
}

/** The IP address a URL's host spells (any spelling the URL parser folds: 0x7f000001, 2130706433, [::1]), or undefined for a name. */
export function literalAddress(url: URL): string | undefined {
  return canonical(url.hostname)?.toString();
}
