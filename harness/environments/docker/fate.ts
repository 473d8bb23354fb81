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

/**
 * Watches the engine's events for one container: `seen` resolves with the first of `actions` that happens
 * to it (a pause from outside, which no exit or wait would ever show). `stop` ends the watch. When the
 * engine cannot be watched, `seen` never resolves (the timeout still ends the run).
 */
export function watchContainerEvents(containerId: string, actions: string[]): { seen: Promise<string>; stop: () => void } {
  let stream: (NodeJS.ReadableStream & { destroy?: () => void }) | undefined;
  let stopped = false;
  const seen = new Promise<string>((resolve) => {
    const options = { filters: { type: ['container'], container: [containerId], event: actions } };
    (docker().getEvents(options as never) as unknown as Promise<NodeJS.ReadableStream>)
      .then((s) => {
        stream = s as typeof stream;
        if (stopped) return stream!.destroy?.();
        let pending = '';
        s.on('data', (chunk: Buffer) => {
          pending += chunk.toString();
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) {
            try {
              const action = (JSON.parse(line) as EngineEvent).Action;
              if (action && actions.includes(action)) resolve(action);
            } catch {
              // not an event line
            }
          }
        });
        s.on('error', () => {});
      })
      .catch(() => {});
  });
  return {
    seen,
    stop: () => {
      stopped = true;
      stream?.destroy?.();
    },
  };
}
