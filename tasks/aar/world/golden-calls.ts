/**
 * The concrete calls of a golden tool chain. Chain steps pass values along through `__`-prefixed keys
 * (`__from_previous_as_locations: "coords"` means: the coordinates another step stored under `coords`);
 * this module turns each step into the arguments an agent would send, given what earlier steps returned.
 * Shared by the synthetic world (which decides what each call returns) and the oracle agent (which
 * makes the calls through the `tools` command), so both agree on every call's arguments.
 */

export interface GoldenStepLike {
  tool_name: string;
  arguments: Record<string, unknown>;
  output_key?: string | null;
}

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** What a step's output is remembered as, for later steps: coordinates for geocoding, else the text. */
export type StepOutput = { coords?: Coordinates; text: string };

export interface ConcreteCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Coordinates of the first result of a geocoding output (`{"results":[{"location":{"lat","lng"}}]}`). */
export function coordinatesOf(text: string): Coordinates | undefined {
  try {
    const parsed = JSON.parse(text) as { results?: Array<{ location?: { lat?: number; lng?: number } }> };
    const loc = parsed.results?.[0]?.location;
    if (typeof loc?.lat === 'number' && typeof loc.lng === 'number') return { latitude: loc.lat, longitude: loc.lng };
  } catch {
    // not JSON: no coordinates
  }
  return undefined;
}

/** The arguments of one step, with `__` wiring replaced by values from earlier outputs. */
export function concreteCall(step: GoldenStepLike, outputs: ReadonlyMap<string, StepOutput>): ConcreteCall {
  const args: Record<string, unknown> = {};
  const coords = (key: unknown): Coordinates => {
    const found = typeof key === 'string' ? outputs.get(key)?.coords : undefined;
    if (!found) throw new Error(`${step.tool_name}: no coordinates stored under ${JSON.stringify(key)} by an earlier step`);
    return found;
  };
  for (const [key, value] of Object.entries(step.arguments)) {
    if (key === '__from_previous_as_locations') args.locations = [coords(value)];
    else if (key === '__from_previous_as_origins_destinations') {
      const [from, to] = value as [string, string];
      args.origins = [coords(from)];
      args.destinations = [coords(to)];
    } else if (key === '__from_previous') Object.assign(args, coords(value));
    else if (key.startsWith('__')) throw new Error(`${step.tool_name}: unknown wiring key ${key}`);
    else args[key] = value;
  }
  return { tool: step.tool_name, args };
}

/** Runs a chain: each step's call is made by `run`, its output remembered for later steps. */
export async function runChain(steps: readonly GoldenStepLike[], run: (call: ConcreteCall) => Promise<string>): Promise<string[]> {
  const outputs = new Map<string, StepOutput>();
  const texts: string[] = [];
  for (const step of steps) {
    const text = await run(concreteCall(step, outputs));
    texts.push(text);
    if (step.output_key) outputs.set(step.output_key, { text, coords: coordinatesOf(text) });
  }
  return texts;
}
