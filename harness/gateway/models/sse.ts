/**
 * An incremental reader of Server-Sent Events (text/event-stream): feed it the bytes of a stream as they
 * arrive, in any chunking, and it calls back once per complete event. Used to read usage from model
 * streams while they are relayed untouched, and by tests to parse what the gateway relays.
 */
export class SseReader {
  private readonly decoder = new TextDecoder();
  private pending = '';
  private event = '';
  private data: string[] = [];

  constructor(private readonly onEvent: (event: string, data: string) => void) {}

  push(chunk: Uint8Array): void {
    this.pending += this.decoder.decode(chunk, { stream: true });
    this.drain(false);
  }

  /** Ends the stream: a last event without its blank line is still delivered. */
  end(): void {
    this.pending += this.decoder.decode();
    this.drain(true);
    this.dispatch();
  }

  private drain(atEnd: boolean): void {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.pending);
      if (!match) break;
      // A lone \r at the very end of a chunk may be the first half of \r\n: wait for more.
      if (match[0] === '\r' && match.index === this.pending.length - 1 && !atEnd) break;
      this.line(this.pending.slice(0, match.index));
      this.pending = this.pending.slice(match.index + match[0].length);
    }
    if (atEnd && this.pending) {
      this.line(this.pending);
      this.pending = '';
    }
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }

  private dispatch(): void {
    if (this.data.length > 0) this.onEvent(this.event || 'message', this.data.join('\n'));
    this.event = '';
    this.data = [];
  }
}

/** Parses a whole SSE text into its events (tests, small bodies). */
export function parseSse(text: string): { event: string; data: string }[] {
  const events: { event: string; data: string }[] = [];
  const reader = new SseReader((event, data) => events.push({ event, data }));
  reader.push(new TextEncoder().encode(text));
  reader.end();
  return events;
}
