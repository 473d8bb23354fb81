import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http.js';

/**
 * Per-trial limits on what the gateway takes in at once, by route, so that no agent can make the harness
 * hold more than a known amount of request bodies whatever it sends: how many requests may be in flight,
 * how large one body may be, and how many body bytes the trial's requests in flight may hold together
 * (from the first byte read until the answer is sent: a model request's body is kept while it is upstream).
 * A request over a limit is refused from its headers, before its body is read (a body without a declared
 * length is counted as it comes, and refused at the byte that passes). Constants, not config: see
 * docs/security.md for what they bound.
 */
export interface RouteLimits {
  maxInFlight: number;
  maxBodyBytes: number;
  maxBytesInFlight: number;
}

export type LimitedRoute = 'tools' | 'model';

export const REQUEST_LIMITS: Readonly<Record<LimitedRoute, RouteLimits>> = {
  // A tool call's arguments are at most TOOL_ARGS_MAX_CHARS (256 K characters); a report carries an output.
  tools: { maxInFlight: 16, maxBodyBytes: 8 * 1024 * 1024, maxBytesInFlight: 16 * 1024 * 1024 },
  // A long conversation with its tool definitions is a few MB; 32 MB is the most Anthropic's Messages API itself
  // takes in one request (images and documents included). Two such requests at once, or many small ones.
  model: { maxInFlight: 16, maxBodyBytes: 32 * 1024 * 1024, maxBytesInFlight: 64 * 1024 * 1024 },
};

/** Why a request was refused at the door; trial.json's `requests_refused` counts them by route and reason. */
export type RefusalReason = 'in_flight' | 'too_large' | 'bytes_in_flight';

export interface Refusal {
  reason: RefusalReason;
  /** 413 for a body over the limit of one request, 429 (try again later) for a trial that has too much in flight. */
  status: 413 | 429;
  message: string;
}

/** Bodies larger than this that are refused unread are not drained: the connection is closed instead. */
export const DRAIN_MAX_BYTES = 1024 * 1024;

/** The body length a request declares, or undefined when it declares none (chunked). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return req.headers['transfer-encoding'] === undefined ? 0 : undefined;
  const n = Number(header);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Before answering a request whose body will not be read: node drains a small body as usual (the connection
 * stays open for the next request); a large one, or one of unknown length, is not drained: the connection is
 * closed after the answer, so an agent cannot keep the harness busy reading what it refused.
 */
export function leaveBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  const declared = declaredLength(req);
  if (declared === undefined || declared > DRAIN_MAX_BYTES) res.setHeader('connection', 'close');
}

/** One admitted request: the bytes its body holds against the trial's share, given back when it ends. */
export class Admission {
  private held = 0;
  private released = false;

  constructor(
    private readonly budget: RouteBudget,
    declared: number | undefined,
  ) {
    if (declared) this.held = declared;
  }

  /** Takes `bytes` more (a body without a declared length, as it comes); a refusal when they do not fit. */
  take(bytes: number): Refusal | undefined {
    const refusal = this.budget.roomFor(this.held + bytes, bytes);
    if (refusal) return refusal;
    this.held += bytes;
    this.budget.bytes += bytes;
    return undefined;
  }

  /** The request ended (answered or not): its slot and bytes are free again. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.inFlight--;
    this.budget.bytes -= this.held;
  }
}

/** One trial's requests in flight on one route, against its limits, and the refusals so far. */
export class RouteBudget {
  inFlight = 0;
  bytes = 0;
  readonly refused: Partial<Record<RefusalReason, number>> = {};

  constructor(readonly limits: RouteLimits) {}

  /** Admits a request from its headers, or says why not (counted). */
  admit(req: IncomingMessage): Admission | Refusal {
    const declared = declaredLength(req);
    const refusal = this.inFlight >= this.limits.maxInFlight ? this.refusal('in_flight') : this.roomFor(declared ?? 0, declared ?? 0);
    if (refusal) return refusal;
    this.inFlight++;
    this.bytes += declared ?? 0;
    return new Admission(this, declared);
  }

  /** Whether a body of `total` bytes, `more` of them not yet held, fits; the refusal (counted) when not. */
  roomFor(total: number, more: number): Refusal | undefined {
    if (total > this.limits.maxBodyBytes) return this.refusal('too_large');
    if (this.bytes + more > this.limits.maxBytesInFlight) return this.refusal('bytes_in_flight');
    return undefined;
  }

  private refusal(reason: RefusalReason): Refusal {
    this.refused[reason] = (this.refused[reason] ?? 0) + 1;
    const { maxInFlight, maxBodyBytes, maxBytesInFlight } = this.limits;
    const message =
      reason === 'in_flight'
        ? `this trial already has ${maxInFlight} requests in flight on this route, the most it may have; try again when one has been answered`
        : reason === 'too_large'
          ? `the request body is over ${maxBodyBytes} bytes, the most one request may send`
          : `this trial's requests in flight on this route already hold ${this.bytes} bytes of ${maxBytesInFlight}; try again when one has been answered`;
    return { reason, status: reason === 'too_large' ? 413 : 429, message };
  }
}

/** A trial's budgets, one per limited route. */
export type RequestBudgets = Record<LimitedRoute, RouteBudget>;

export function requestBudgets(limits: Partial<Record<LimitedRoute, Partial<RouteLimits>>> = {}): RequestBudgets {
  return {
    tools: new RouteBudget({ ...REQUEST_LIMITS.tools, ...limits.tools }),
    model: new RouteBudget({ ...REQUEST_LIMITS.model, ...limits.model }),
  };
}

/** trial.json's `requests_refused`: the refusals by route and reason; undefined when there were none. */
export function refusedCounts(budgets: RequestBudgets): Partial<Record<LimitedRoute, Partial<Record<RefusalReason, number>>>> | undefined {
  const out = Object.fromEntries(Object.entries(budgets).filter(([, b]) => Object.keys(b.refused).length).map(([route, b]) => [route, { ...b.refused }]));
  return Object.keys(out).length ? out : undefined;
}

/**
 * Reads an admitted request's body: at most `limitBytes` (the caller's own limit), a body without a declared
 * length counted against the trial as it comes. Over a limit: an HttpError with the refusal's status.
 */
export async function readAdmittedBody(req: IncomingMessage, admission: Admission, limitBytes: number): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limitBytes) throw new HttpError(413, `request body over ${limitBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = chunk as Buffer;
    if (declared === undefined) {
      const refusal = admission.take(bytes.length);
      if (refusal) throw new HttpError(refusal.status, refusal.message);
    }
    size += bytes.length;
    if (size > limitBytes) throw new HttpError(413, `request body over ${limitBytes} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}
