/** Runtime helpers for evaluation: the step budget and print capture, iteration, and argument checks. */
import { PyException, Unsupported, isPyObject, asInt, pyEquals, typeName, type CallContext, type PyFunction, type PyValue } from './index.js';

export const DEFAULT_MAX_STEPS = 1_000_000;

/** Step budget and print capture for one evaluation. */
export class ExecContext implements CallContext {
  steps = 0;
  readonly output: string[] = [];
  readonly printed: PyValue[][] = [];
  constructor(readonly maxSteps = DEFAULT_MAX_STEPS) {}
  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.maxSteps) throw new Unsupported(`the program runs more than ${this.maxSteps} loop steps`);
  }
  write(text: string, values: PyValue[]): void {
    this.output.push(text);
    this.printed.push(values);
  }
}

export function* iterate(v: PyValue, ctx: CallContext): Generator<PyValue> {
  if (typeof v === 'string') {
    for (const ch of v) {
      ctx.step();
      yield ch;
    }
    return;
  }
  if (Array.isArray(v)) {
    for (const x of [...v]) {
      ctx.step();
      yield x;
    }
    return;
  }
  if (isPyObject(v)) {
    switch (v.type) {
      case 'tuple':
        for (const x of v.items) {
          ctx.step();
          yield x;
        }
        return;
      case 'set':
        for (const x of v.items) {
          ctx.step();
          yield x;
        }
        return;
      case 'range':
        for (let i = v.start; v.step > 0n ? i < v.stop : i > v.stop; i += v.step) {
          ctx.step();
          yield i;
        }
        return;
      case 'iterator':
        for (;;) {
          const r = v.iter.next();
          if (r.done) return;
          yield r.value;
        }
    }
  }
  throw new PyException('TypeError', `'${typeName(v)}' object is not iterable`);
}

export function fn(name: string, call: PyFunction['call'], attrs?: Map<string, PyValue>): PyFunction {
  return { type: 'function', name, call, attrs };
}

export function arity(name: string, args: PyValue[], kwargs: Map<string, PyValue>, min: number, max = min): void {
  if (kwargs.size) throw new Unsupported(`keyword arguments to ${name}() are not supported`);
  if (args.length < min || args.length > max) {
    const want = min === max ? `exactly ${min}` : `${min} to ${max}`;
    throw new PyException('TypeError', `${name}() takes ${want} argument${max === 1 ? '' : 's'} (${args.length} given)`);
  }
}

export function intArg(v: PyValue): bigint {
  const i = asInt(v);
  if (i === undefined) throw new PyException('TypeError', `'${typeName(v)}' object cannot be interpreted as an integer`);
  return i;
}

export function listOf(v: PyValue, ctx: CallContext): PyValue[] {
  return [...iterate(v, ctx)];
}

export function dedupe(items: PyValue[], ctx: CallContext): PyValue[] {
  const out: PyValue[] = [];
  for (const x of items) {
    if (x !== null && typeof x === 'object' && (Array.isArray(x) || x instanceof Map || x.type === 'set')) {
      throw new PyException('TypeError', `unhashable type: '${typeName(x)}'`);
    }
    ctx.step();
    if (!out.some((y) => pyEquals(x, y))) out.push(x);
  }
  return out;
}
