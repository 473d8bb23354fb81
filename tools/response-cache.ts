import type { ToolResult } from './providers/types.js';

/** Memory the finished responses of a job may hold (text counted at two bytes a character). */
export const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The responses of a job's tool calls, by call identity. A call in flight is shared by everyone who makes it
 * meanwhile; finished responses are kept, most recently used last, up to a byte budget: identical calls close
 * in time (the agents of a job run interleaved, leg by leg) are answered once, and a long job does not hold
 * every response it ever got. Transient failures and rejected calls are not kept.
 */
export class ResponseCache {
  private readonly inFlight = new Map<string, Promise<ToolResult>>();
  private readonly finished = new Map<string, ToolResult>();
  private bytes = 0;

  constructor(private readonly budgetBytes = RESPONSE_CACHE_BYTES) {}

  /** The response of an identical call, in flight or finished, if there is one. */
  get(key: string): Promise<ToolResult> | undefined {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const done = this.finished.get(key);
    if (!done) return undefined;
    this.finished.delete(key);
    this.finished.set(key, done);
    return Promise.resolve(done);
  }

  /** Shares a call while it runs and keeps what it answered; returns the same promise. */
  add(key: string, pending: Promise<ToolResult>): Promise<ToolResult> {
    this.inFlight.set(key, pending);
    pending.then(
      (result) => {
        this.inFlight.delete(key);
        if (!result.transient) this.keep(key, result);
      },
      () => this.inFlight.delete(key),
    );
    return pending;
  }

  private keep(key: string, result: ToolResult): void {
    const size = 2 * (result.text.length + key.length);
    if (size > this.budgetBytes) return;
    this.finished.set(key, result);
    this.bytes += size;
    for (const [oldKey, old] of this.finished) {
      if (this.bytes <= this.budgetBytes) break;
      this.finished.delete(oldKey);
      this.bytes -= 2 * (old.text.length + oldKey.length);
    }
  }
}
