import { docker } from '../../../common/docker.js';
import type { SandboxFate } from '../types.js';

interface EngineEvent {
  Action?: string;
  timeNano?: number;
  Actor?: { Attributes?: Record<string, string> };
}

/** The engine's events for one container between two instants (ms since the epoch). */
async function containerEvents(containerId: string, sinceMs: number, untilMs: number): Promise<EngineEvent[]> {
  // The engine takes fractional seconds; dockerode's types say whole numbers only.
  const options = { since: String(Math.floor(sinceMs / 1000)), until: (untilMs / 1000).toFixed(3), filters: { type: ['container'], container: [containerId] } };
  const stream = (await docker().getEvents(options as unknown as { since: number })) as unknown as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as EngineEvent)
    .filter((e) => (e.timeNano ?? 0) / 1e6 >= sinceMs - 1000);
}

/**
 * What the engine saw happen to a container while a command ran: killed, paused, removed or re-limited by
 * someone other than the harness (its own kills, from `ownKillsAfterMs` on, are not counted), or a kernel
 * OOM kill under the container's own memory limit. Events reach the engine's log a moment after the fact,
 * hence the short wait past now.
 */
export async function containerFate(containerId: string, sinceMs: number, ownKillsAfterMs = Infinity, settleMs = 1000): Promise<SandboxFate> {
  await new Promise((r) => setTimeout(r, settleMs));
  let events: EngineEvent[];
  try {
    events = await containerEvents(containerId, sinceMs, Date.now());
  } catch {
    return {};
  }
  const at = (e: EngineEvent): number => (e.timeNano ?? 0) / 1e6;
  const actions = (name: string): EngineEvent[] => events.filter((e) => e.Action === name);
  const kill = actions('kill').find((e) => at(e) < ownKillsAfterMs);
  if (actions('destroy').length) return { outside: 'removed' };
  if (kill) return { outside: `killed from outside (signal ${kill.Actor?.Attributes?.signal ?? '?'})` };
  if (actions('pause').length) return { outside: 'paused from outside' };
  if (actions('oom').length) {
    // A limit changed with `docker update` is not the one the trial was given.
    if (actions('update').length) return { outside: 'out of memory under a memory limit changed from outside' };
    return { oomAtOwnLimit: true };
  }
  if (actions('stop').length) return { outside: 'stopped from outside' };
  return {};
}

/** The actions a running trial is watched for: a pause from outside, which no exit or wait would ever show. */
const WATCHED = ['pause'];

type EventStream = NodeJS.ReadableStream & { destroy?: () => void };

/**
 * One events stream per process for every running trial (not one per trial: each stream is a request the
 * engine holds open): opened by the first watch, closed when the last one stops, opened again when the
 * engine ends it while trials still wait. Only the watched actions come over it.
 */
class PauseWatch {
  private readonly waiting = new Map<string, (action: string) => void>();
  private stream?: EventStream;
  private opening = false;

  add(containerId: string, seen: (action: string) => void): void {
    this.waiting.set(containerId, seen);
    this.open();
  }

  remove(containerId: string): void {
    this.waiting.delete(containerId);
    if (this.waiting.size === 0) this.close();
  }

  private open(): void {
    if (this.stream || this.opening) return;
    this.opening = true;
    const options = { filters: { type: ['container'], event: WATCHED } };
    (docker().getEvents(options as never) as unknown as Promise<EventStream>).then(
      (s) => {
        this.opening = false;
        if (this.waiting.size === 0) return s.destroy?.();
        this.stream = s;
        let pending = '';
        s.on('data', (chunk: Buffer) => {
          pending += chunk.toString();
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) this.dispatch(line);
        });
        const ended = (): void => {
          if (this.stream !== s) return;
          this.stream = undefined;
          // The engine ended the stream (restarted, say): watch again while trials still run.
          if (this.waiting.size) setTimeout(() => this.open(), 1000).unref();
        };
        s.on('error', ended);
        s.on('end', ended);
        s.on('close', ended);
      },
      // When the engine cannot be watched, nothing is seen (the timeout still ends the run).
      () => (this.opening = false),
    );
  }

  private dispatch(line: string): void {
    let event: EngineEvent & { id?: string; Actor?: { ID?: string } };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      return;
    }
    const id = event.Actor?.ID ?? event.id;
    if (id && event.Action && WATCHED.includes(event.Action)) this.waiting.get(id)?.(event.Action);
  }

  private close(): void {
    const s = this.stream;
    this.stream = undefined;
    s?.destroy?.();
  }
}

let pauseWatch: PauseWatch | undefined;

/**
 * Watches a running trial's container for a pause from outside: `seen` resolves when one happens; `stop`
 * ends the watch. When the engine cannot be watched, `seen` never resolves (the timeout still ends the run).
 */
export function watchForPause(containerId: string): { seen: Promise<string>; stop: () => void } {
  const watch = (pauseWatch ??= new PauseWatch());
  const seen = new Promise<string>((resolve) => watch.add(containerId, resolve));
  return { seen, stop: () => watch.remove(containerId) };
}
