/** The builtin functions of the subset (BUILTINS) and the modules `import` may bring in (MODULES). */
import { arity, dedupe, fn, intArg, iterate, listOf } from './runtime.js';
import {
  PyException,
  Unsupported,
  absBig,
  asInt,
  binaryOp,
  dateFromIso,
  floatToInt,
  makeDate,
  pyAbs,
  pyEquals,
  pyFloat,
  pyInt,
  pyLen,
  pyOrder,
  pyStr,
  rangeLength,
  pyTruthy,
  typeName,
  type CallContext,
  type PyFunction,
  type PyModule,
  type PyRange,
  type PyValue,
} from './index.js';
import { digitalRoot } from './number-theory.js';

function minMax(name: 'min' | 'max', args: PyValue[], kwargs: Map<string, PyValue>, ctx: CallContext): PyValue {
  if (kwargs.size) throw new Unsupported(`keyword arguments to ${name}() are not supported`);
  if (args.length === 0) throw new PyException('TypeError', `${name} expected at least 1 argument, got 0`);
  const items = args.length === 1 ? listOf(args[0], ctx) : args;
  if (items.length === 0) throw new PyException('ValueError', `${name}() arg is an empty sequence`);
  let best = items[0];
  for (const x of items.slice(1)) if (pyOrder(name === 'min' ? '<' : '>', x, best)) best = x;
  return best;
}

/** sum(): ints exactly; floats would depend on the Python version (3.12 compensates), so they are refused. */
function pySum(args: PyValue[], kwargs: Map<string, PyValue>, ctx: CallContext): PyValue {
  if (kwargs.size) throw new Unsupported('keyword arguments to sum() are not supported');
  arity('sum', args, kwargs, 1, 2);
  let total: PyValue = args.length > 1 ? args[1] : 0n;
  if (typeof total === 'string') throw new PyException('TypeError', "sum() can't sum strings [use ''.join(seq) instead]");
  for (const x of iterate(args[0], ctx)) {
    if (typeof x === 'number' || typeof total === 'number') {
      throw new Unsupported('sum() of floats is not supported (its rounding differs between Python versions)');
    }
    total = binaryOp('+', total, x);
  }
  return total;
}

function pyRange(args: PyValue[], kwargs: Map<string, PyValue>): PyRange {
  arity('range', args, kwargs, 1, 3);
  const ints = args.map((a) => intArg(a));
  const [start, stop, step] = ints.length === 1 ? [0n, ints[0], 1n] : [ints[0], ints[1], ints[2] ?? 1n];
  if (step === 0n) throw new PyException('ValueError', 'range() arg 3 must not be zero');
  return { type: 'range', start, stop, step };
}

function pyRound(args: PyValue[], kwargs: Map<string, PyValue>): PyValue {
  arity('round', args, kwargs, 1, 2);
  if (args.length === 2 && args[1] !== null) throw new Unsupported('round() with ndigits is not supported');
  const v = args[0];
  const i = asInt(v);
  if (i !== undefined) return i;
  if (typeof v !== 'number') throw new PyException('TypeError', `type ${typeName(v)} doesn't define __round__ method`);
  if (!Number.isFinite(v)) floatToInt(v);
  const f = Math.floor(v);
  const diff = v - f;
  const r = diff > 0.5 ? f + 1 : diff < 0.5 ? f : f % 2 === 0 ? f : f + 1; // half to even
  return BigInt(r);
}

function pyPrint(args: PyValue[], kwargs: Map<string, PyValue>, ctx: CallContext): PyValue {
  let sep = ' ';
  let end = '\n';
  for (const [k, v] of kwargs) {
    if ((k !== 'sep' && k !== 'end') || (v !== null && typeof v !== 'string')) {
      throw new Unsupported(`print(${k}=...) is not supported`);
    }
    if (k === 'sep' && v !== null) sep = v;
    if (k === 'end' && v !== null) end = v;
  }
  ctx.write(args.map(pyStr).join(sep) + end, args);
  return null;
}

const DIGITAL_ROOT = fn('digital_root', (args, kwargs) => {
  arity('digital_root', args, kwargs, 1);
  return digitalRoot(absBig(pyInt(args[0])));
});

/** `digital_root` as the legs define it: abs(int(n)), then 0 or 1 + (n - 1) % 9. */
export const DIGITAL_ROOT_FUNCTION: PyFunction = DIGITAL_ROOT;

export const ISLEAP = fn('isleap', (args, kwargs) => {
  arity('isleap', args, kwargs, 1);
  const y = args[0];
  const zero = (m: bigint) => pyEquals(binaryOp('%', y, m), 0n);
  return zero(4n) && (!zero(100n) || zero(400n));
});

const DATE_CLASS = fn(
  'date',
  (args, kwargs) => {
    if (kwargs.size) throw new Unsupported('keyword arguments to date() are not supported');
    arity('date', args, kwargs, 3);
    const [y, m, d] = args.map((a) => intArg(a));
    return makeDate(y, m, d);
  },
  new Map<string, PyValue>([
    [
      'fromisoformat',
      fn('fromisoformat', (args, kwargs) => {
        arity('fromisoformat', args, kwargs, 1);
        const s = args[0];
        if (typeof s !== 'string') throw new PyException('TypeError', 'fromisoformat: argument must be str');
        return dateFromIso(s);
      }),
    ],
  ]),
);

/** Modules that `import` may bring in. */
export const MODULES: Record<string, PyModule> = {
  datetime: { type: 'module', name: 'datetime', attrs: new Map<string, PyValue>([['date', DATE_CLASS]]) },
  calendar: { type: 'module', name: 'calendar', attrs: new Map<string, PyValue>([['isleap', ISLEAP]]) },
};

export const BUILTINS = new Map<string, PyFunction>(
  (
    [
      ['abs', (a, k) => (arity('abs', a, k, 1), pyAbs(a[0]))],
      ['int', (a, k) => {
        if (a.length === 2 || k.size) throw new Unsupported('int() with a base is not supported');
        arity('int', a, k, 0, 1);
        return a.length ? pyInt(a[0]) : 0n;
      }],
      ['float', (a, k) => (arity('float', a, k, 0, 1), a.length ? pyFloat(a[0]) : 0)],
      ['str', (a, k) => (arity('str', a, k, 0, 1), a.length ? pyStr(a[0]) : '')],
      ['bool', (a, k) => (arity('bool', a, k, 0, 1), a.length ? pyTruthy(a[0]) : false)],
      ['len', (a, k) => {
        arity('len', a, k, 1);
        const v = a[0];
        if (typeof v === 'string') return BigInt(pyLen(v));
        if (v !== null && typeof v === 'object') {
          if (Array.isArray(v)) return BigInt(v.length);
          if (v instanceof Map) return BigInt(v.size);
          if (v.type === 'tuple' || v.type === 'set') return BigInt(v.items.length);
          if (v.type === 'range') return rangeLength(v);
        }
        throw new PyException('TypeError', `object of type '${typeName(v)}' has no len()`);
      }],
      ['ord', (a, k) => {
        arity('ord', a, k, 1);
        const v = a[0];
        if (typeof v !== 'string') throw new PyException('TypeError', `ord() expected string of length 1, but ${typeName(v)} found`);
        const n = pyLen(v);
        if (n !== 1) throw new PyException('TypeError', `ord() expected a character, but string of length ${n} found`);
        return BigInt(v.codePointAt(0)!);
      }],
      ['chr', (a, k) => {
        arity('chr', a, k, 1);
        const i = intArg(a[0]);
        if (i < 0n || i > 0x10ffffn) throw new PyException('ValueError', 'chr() arg not in range(0x110000)');
        return String.fromCodePoint(Number(i));
      }],
      ['bin', (a, k) => {
        arity('bin', a, k, 1);
        const i = intArg(a[0]);
        return (i < 0n ? '-0b' : '0b') + absBig(i).toString(2);
      }],
      ['min', (a, k, ctx) => minMax('min', a, k, ctx)],
      ['max', (a, k, ctx) => minMax('max', a, k, ctx)],
      ['sum', pySum],
      ['range', pyRange],
      ['round', pyRound],
      ['set', (a, k, ctx) => (arity('set', a, k, 0, 1), { type: 'set', items: a.length ? dedupe(listOf(a[0], ctx), ctx) : [] })],
      ['list', (a, k, ctx) => (arity('list', a, k, 0, 1), a.length ? listOf(a[0], ctx) : [])],
      ['tuple', (a, k, ctx) => (arity('tuple', a, k, 0, 1), { type: 'tuple', items: a.length ? listOf(a[0], ctx) : [] })],
      ['sorted', (a, k, ctx) => {
        arity('sorted', a, k, 1);
        const items = listOf(a[0], ctx);
        // Insertion sort keeps it stable and uses only Python's `<`, like list.sort.
        for (let i = 1; i < items.length; i++) {
          const x = items[i];
          let j = i - 1;
          while (j >= 0 && pyOrder('<', x, items[j])) {
            items[j + 1] = items[j];
            j--;
          }
          items[j + 1] = x;
        }
        return items;
      }],
      ['all', (a, k, ctx) => {
        arity('all', a, k, 1);
        for (const x of iterate(a[0], ctx)) if (!pyTruthy(x)) return false;
        return true;
      }],
      ['any', (a, k, ctx) => {
        arity('any', a, k, 1);
        for (const x of iterate(a[0], ctx)) if (pyTruthy(x)) return true;
        return false;
      }],
      ['print', pyPrint],
    ] as Array<[string, PyFunction['call']]>
  ).map(([name, call]) => [name, fn(name, call)]),
);

/** Python builtins this subset leaves out: naming one is "unsupported", not a NameError. */
export const OTHER_BUILTINS = new Set(
  'divmod pow hex oct format repr map filter zip enumerate reversed dict frozenset isinstance type hash id input open eval exec getattr setattr hasattr iter next callable vars globals locals compile __import__ bytes bytearray complex object super slice ascii breakpoint memoryview classmethod staticmethod property issubclass delattr dir help'.split(' '),
);
