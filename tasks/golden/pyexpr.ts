/**
 * Parser and evaluator for Python expressions, with Python semantics (see pyvalue.ts):
 * ints are BigInt, `/` is true division, `//` and `%` floor, `**` with a negative exponent is a float.
 *
 * Supported: literals, names, + - * / // % **, unary - + ~ not, comparisons (chained, in, not in),
 * and/or, `x if c else y`, calls (positional and keyword arguments), attributes, indexing and
 * slicing, tuples, lists, sets, and one-`for` generator expressions / comprehensions.
 * The builtins are listed in BUILTINS; anything else is reported as unsupported.
 */
import { PySyntaxError, tokenize, type Token } from './pylex.js';
import {
  PyException,
  Unsupported,
  absBig,
  asInt,
  binaryOp,
  codePoints,
  dateFromIso,
  floatToInt,
  makeDate,
  pyAbs,
  pyEquals,
  pyFloat,
  pyInt,
  pyIsAlpha,
  pyLen,
  pyOrder,
  pyStr,
  pyStrip,
  rangeLength,
  truthy,
  typeName,
  unaryOp,
  fromOrdinal,
  type BinaryOperator,
  type CallContext,
  type PyFunction,
  type PyModule,
  type PyRange,
  type PyValue,
} from './pyvalue.js';
import { digitalRoot, divisors, leapYearsBetween } from './transforms.js';

// Jest runs tests in a vm sandbox where each global lookup is slow; bind the globals used here once.
const { BigInt, Number, Math, String, Object, Map, Set } = globalThis;

// ---------------------------------------------------------------------------------------------
// AST

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in' | 'is' | 'is not';

export type Target = { kind: 'name'; id: string } | { kind: 'tuple'; items: Target[] };

export interface Comprehension {
  elt: Expr;
  target: Target;
  iter: Expr;
  conds: Expr[];
}

export interface SliceExpr {
  kind: 'slice';
  lower: Expr | null;
  upper: Expr | null;
  step: Expr | null;
}

export type Expr = { line: number } & (
  | { kind: 'const'; value: PyValue }
  | { kind: 'name'; id: string }
  | { kind: 'binop'; op: BinaryOperator; left: Expr; right: Expr }
  | { kind: 'unary'; op: '-' | '+' | '~' | 'not'; operand: Expr }
  | { kind: 'boolop'; op: 'and' | 'or'; values: Expr[] }
  | { kind: 'compare'; left: Expr; ops: CompareOp[]; comparators: Expr[] }
  | { kind: 'ifexp'; test: Expr; body: Expr; orelse: Expr }
  | { kind: 'call'; func: Expr; args: Expr[]; keywords: Array<[string, Expr]> }
  | { kind: 'attribute'; value: Expr; attr: string }
  | { kind: 'subscript'; value: Expr; index: Expr | SliceExpr }
  | { kind: 'tuple' | 'list' | 'set'; items: Expr[] }
  | ({ kind: 'genexp' | 'listcomp' | 'setcomp' } & Comprehension)
);

export const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del',
  'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal',
  'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
]);

const UNSUPPORTED_OPERATORS = new Set(['|', '&', '^', '<<', '>>', '@', ':=', '...', '<>']);

// ---------------------------------------------------------------------------------------------
// Parser

export class Parser {
  pos = 0;
  constructor(readonly tokens: Token[]) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }
  next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }
  /** Steps back over a token just taken with next() (a no-op at the end, where next() stays put). */
  back(t: Token): void {
    if (t.type !== 'end') this.pos--;
  }
  isOp(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'op' && t.value === value;
  }
  isKeyword(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'name' && t.value === value;
  }
  acceptOp(value: string): boolean {
    if (!this.isOp(value)) return false;
    this.next();
    return true;
  }
  acceptKeyword(value: string): boolean {
    if (!this.isKeyword(value)) return false;
    this.next();
    return true;
  }
  expectOp(value: string): Token {
    if (!this.isOp(value)) this.fail(`expected '${value}'`);
    return this.next();
  }
  expectKeyword(value: string): Token {
    if (!this.isKeyword(value)) this.fail(`expected '${value}'`);
    return this.next();
  }
  fail(message: string): never {
    const t = this.peek();
    if (t.type === 'op' && UNSUPPORTED_OPERATORS.has(t.value)) throw new Unsupported(`line ${t.line}: operator '${t.value}' is not supported`);
    if (t.type === 'name' && ['lambda', 'yield', 'await'].includes(t.value)) {
      throw new Unsupported(`line ${t.line}: '${t.value}' is not supported`);
    }
    const shown = t.type === 'end' ? 'end of input' : t.type === 'newline' ? 'end of line' : t.type === 'indent' ? 'indent' : t.type === 'dedent' ? 'dedent' : `'${t.value}'`;
    throw new PySyntaxError(`${message}, found ${shown}`, t.line);
  }

  /** A test list: `a`, or `a, b` as a tuple (statement right-hand sides, eval input). */
  exprList(): Expr {
    const line = this.peek().line;
    const first = this.expression();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.acceptOp(',')) {
      if (!this.startsExpression()) break;
      items.push(this.expression());
    }
    return { kind: 'tuple', items, line };
  }

  startsExpression(): boolean {
    const t = this.peek();
    if (t.type === 'int' || t.type === 'float' || t.type === 'string') return true;
    if (t.type === 'name') return !KEYWORDS.has(t.value) || ['True', 'False', 'None', 'not', 'lambda'].includes(t.value);
    return t.type === 'op' && ['(', '[', '{', '-', '+', '~'].includes(t.value);
  }

  expression(): Expr {
    if (this.isKeyword('lambda')) this.fail('lambda');
    const line = this.peek().line;
    const body = this.orTest();
    if (!this.acceptKeyword('if')) return body;
    const test = this.orTest();
    this.expectKeyword('else');
    const orelse = this.expression();
    return { kind: 'ifexp', test, body, orelse, line };
  }

  orTest(): Expr {
    return this.boolOp('or', () => this.andTest());
  }
  andTest(): Expr {
    return this.boolOp('and', () => this.notTest());
  }
  private boolOp(op: 'and' | 'or', operand: () => Expr): Expr {
    const line = this.peek().line;
    const first = operand();
    if (!this.isKeyword(op)) return first;
    const values = [first];
    while (this.acceptKeyword(op)) values.push(operand());
    return { kind: 'boolop', op, values, line };
  }
  notTest(): Expr {
    const line = this.peek().line;
    if (this.acceptKeyword('not')) return { kind: 'unary', op: 'not', operand: this.notTest(), line };
    return this.comparison();
  }

  comparison(): Expr {
    const line = this.peek().line;
    const left = this.arith();
    const ops: CompareOp[] = [];
    const comparators: Expr[] = [];
    for (;;) {
      const t = this.peek();
      let op: CompareOp | undefined;
      if (t.type === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.value)) {
        this.next();
        op = t.value as CompareOp;
      } else if (this.isKeyword('in')) {
        this.next();
        op = 'in';
      } else if (this.isKeyword('not') && this.isKeyword('in', 1)) {
        this.next();
        this.next();
        op = 'not in';
      } else if (this.isKeyword('is')) {
        this.next();
        op = this.acceptKeyword('not') ? 'is not' : 'is';
      }
      if (!op) break;
      ops.push(op);
      comparators.push(this.arith());
    }
    return ops.length ? { kind: 'compare', left, ops, comparators, line } : left;
  }

  arith(): Expr {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const t = this.next();
      left = { kind: 'binop', op: t.value as BinaryOperator, left, right: this.term(), line: t.line };
    }
    if (this.peek().type === 'op' && UNSUPPORTED_OPERATORS.has(this.peek().value)) this.fail('operator');
    return left;
  }

  term(): Expr {
    let left = this.factor();
    while (['*', '/', '//', '%'].some((o) => this.isOp(o))) {
      const t = this.next();
      left = { kind: 'binop', op: t.value as BinaryOperator, left, right: this.factor(), line: t.line };
    }
    return left;
  }

  factor(): Expr {
    const t = this.peek();
    if (t.type === 'op' && (t.value === '-' || t.value === '+' || t.value === '~')) {
      this.next();
      const operand = this.factor();
      // Fold negative numeric literals, as CPython's compiler does.
      if (t.value === '-' && operand.kind === 'const' && (typeof operand.value === 'bigint' || typeof operand.value === 'number')) {
        return { kind: 'const', value: -operand.value, line: t.line };
      }
      return { kind: 'unary', op: t.value as '-' | '+' | '~', operand, line: t.line };
    }
    return this.power();
  }

  power(): Expr {
    const base = this.primary();
    if (this.isOp('**')) {
      const t = this.next();
      return { kind: 'binop', op: '**', left: base, right: this.factor(), line: t.line };
    }
    return base;
  }

  primary(): Expr {
    let e = this.atom();
    for (;;) {
      const t = this.peek();
      if (t.type !== 'op') break;
      if (t.value === '(') {
        this.next();
        e = this.callRest(e, t.line);
      } else if (t.value === '[') {
        this.next();
        const index = this.subscript();
        this.expectOp(']');
        e = { kind: 'subscript', value: e, index, line: t.line };
      } else if (t.value === '.') {
        this.next();
        const name = this.next();
        if (name.type !== 'name') this.fail('expected an attribute name');
        e = { kind: 'attribute', value: e, attr: name.value, line: t.line };
      } else break;
    }
    return e;
  }

  private callRest(func: Expr, line: number): Expr {
    const args: Expr[] = [];
    const keywords: Array<[string, Expr]> = [];
    while (!this.isOp(')')) {
      if (this.isOp('*') || this.isOp('**')) throw new Unsupported(`line ${line}: star arguments are not supported`);
      if (this.peek().type === 'name' && this.isOp('=', 1)) {
        const name = this.next().value;
        this.next();
        keywords.push([name, this.expression()]);
      } else {
        if (keywords.length) this.fail('positional argument follows keyword argument');
        const arg = this.expression();
        if (this.isKeyword('for')) {
          if (args.length || keywords.length) this.fail('generator expression must be parenthesized');
          args.push({ kind: 'genexp', ...this.comprehension(arg), line: arg.line });
          if (!this.isOp(')')) this.fail('generator expression must be parenthesized');
          break;
        }
        args.push(arg);
      }
      if (!this.acceptOp(',')) break;
    }
    this.expectOp(')');
    return { kind: 'call', func, args, keywords, line };
  }

  private subscript(): Expr | SliceExpr {
    const part = (): Expr | null => (this.isOp(':') || this.isOp(']') ? null : this.expression());
    const lower = part();
    if (!this.acceptOp(':')) {
      if (!lower) this.fail('expected an index');
      if (this.isOp(',')) throw new Unsupported(`line ${lower.line}: tuple indices are not supported`);
      return lower;
    }
    const upper = part();
    const step = this.acceptOp(':') ? part() : null;
    return { kind: 'slice', lower, upper, step };
  }

  private comprehension(elt: Expr): Comprehension {
    this.expectKeyword('for');
    const target = this.targetList();
    this.expectKeyword('in');
    const iter = this.orTest();
    const conds: Expr[] = [];
    for (;;) {
      if (this.acceptKeyword('if')) conds.push(this.orTest());
      else if (this.isKeyword('for') || this.isKeyword('async')) {
        throw new Unsupported(`line ${this.peek().line}: comprehensions with more than one 'for' are not supported`);
      } else break;
    }
    return { elt, target, iter, conds };
  }

  /** `x`, `x, y`, `(x, y)`: loop and assignment targets made of names only. */
  targetList(): Target {
    const first = this.singleTarget();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.acceptOp(',')) {
      if (this.isKeyword('in') || this.isOp('=') || this.isOp(')')) break;
      items.push(this.singleTarget());
    }
    return { kind: 'tuple', items };
  }

  private singleTarget(): Target {
    if (this.acceptOp('(')) {
      const inner = this.targetList();
      this.expectOp(')');
      return inner.kind === 'tuple' ? inner : { kind: 'tuple', items: [inner] };
    }
    const t = this.next();
    if (t.type !== 'name' || KEYWORDS.has(t.value)) {
      this.back(t);
      this.fail('expected a name');
    }
    return { kind: 'name', id: t.value };
  }

  atom(): Expr {
    const t = this.next();
    const line = t.line;
    switch (t.type) {
      case 'int':
        return { kind: 'const', value: BigInt(t.value.replace(/_/g, '')), line };
      case 'float':
        return { kind: 'const', value: Number(t.value.replace(/_/g, '')), line };
      case 'string': {
        let value = t.value;
        while (this.peek().type === 'string') value += this.next().value;
        return { kind: 'const', value, line };
      }
      case 'name':
        if (t.value === 'True') return { kind: 'const', value: true, line };
        if (t.value === 'False') return { kind: 'const', value: false, line };
        if (t.value === 'None') return { kind: 'const', value: null, line };
        if (KEYWORDS.has(t.value)) {
          this.back(t);
          this.fail('expected an expression');
        }
        return { kind: 'name', id: t.value, line };
      case 'op':
        if (t.value === '(') {
          if (this.acceptOp(')')) return { kind: 'tuple', items: [], line };
          const first = this.expression();
          if (this.isKeyword('for')) {
            const comp = this.comprehension(first);
            this.expectOp(')');
            return { kind: 'genexp', ...comp, line };
          }
          if (this.acceptOp(')')) return first;
          const items = [first];
          while (this.acceptOp(',')) {
            if (this.isOp(')')) break;
            items.push(this.expression());
          }
          this.expectOp(')');
          return { kind: 'tuple', items, line };
        }
        if (t.value === '[' || t.value === '{') {
          const close = t.value === '[' ? ']' : '}';
          const kind = t.value === '[' ? 'list' : 'set';
          if (this.acceptOp(close)) {
            if (kind === 'set') throw new Unsupported(`line ${line}: dicts are not supported`);
            return { kind, items: [], line };
          }
          const first = this.expression();
          if (kind === 'set' && this.isOp(':')) throw new Unsupported(`line ${line}: dicts are not supported`);
          if (this.isKeyword('for')) {
            const comp = this.comprehension(first);
            this.expectOp(close);
            return { kind: kind === 'list' ? 'listcomp' : 'setcomp', ...comp, line };
          }
          const items = [first];
          while (this.acceptOp(',')) {
            if (this.isOp(close)) break;
            items.push(this.expression());
          }
          this.expectOp(close);
          return { kind, items, line };
        }
        break;
    }
    this.back(t);
    this.fail('expected an expression');
  }
}

/** Parses one expression (a bare tuple allowed); throws PySyntaxError or Unsupported. */
export function parseExpression(source: string): Expr {
  const tokens = tokenize(source).filter((t) => t.type !== 'indent' && t.type !== 'dedent');
  const parser = new Parser(tokens);
  const e = parser.exprList();
  while (parser.peek().type === 'newline') parser.next();
  if (parser.peek().type !== 'end') parser.fail('expected end of expression');
  return e;
}

// ---------------------------------------------------------------------------------------------
// Runtime helpers: iteration, calls, attributes

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
  if (v !== null && typeof v === 'object') {
    switch (v.type) {
      case 'list':
      case 'tuple':
        for (const x of v.type === 'list' ? [...v.items] : v.items) {
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

function fn(name: string, call: PyFunction['call'], attrs?: Map<string, PyValue>): PyFunction {
  return { type: 'function', name, call, attrs };
}

function arity(name: string, args: PyValue[], kwargs: Map<string, PyValue>, min: number, max = min): void {
  if (kwargs.size) throw new Unsupported(`keyword arguments to ${name}() are not supported`);
  if (args.length < min || args.length > max) {
    const want = min === max ? `exactly ${min}` : `${min} to ${max}`;
    throw new PyException('TypeError', `${name}() takes ${want} argument${max === 1 ? '' : 's'} (${args.length} given)`);
  }
}

function intArg(v: PyValue): bigint {
  const i = asInt(v);
  if (i === undefined) throw new PyException('TypeError', `'${typeName(v)}' object cannot be interpreted as an integer`);
  return i;
}

function listOf(v: PyValue, ctx: CallContext): PyValue[] {
  return [...iterate(v, ctx)];
}

function dedupe(items: PyValue[], ctx: CallContext): PyValue[] {
  const out: PyValue[] = [];
  for (const x of items) {
    if (x !== null && typeof x === 'object' && (x.type === 'list' || x.type === 'set')) {
      throw new PyException('TypeError', `unhashable type: '${x.type}'`);
    }
    ctx.step();
    if (!out.some((y) => pyEquals(x, y))) out.push(x);
  }
  return out;
}

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

const ISLEAP = fn('isleap', (args, kwargs) => {
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
      ['bool', (a, k) => (arity('bool', a, k, 0, 1), a.length ? truthy(a[0]) : false)],
      ['len', (a, k) => {
        arity('len', a, k, 1);
        const v = a[0];
        if (typeof v === 'string') return BigInt(pyLen(v));
        if (v !== null && typeof v === 'object') {
          if (v.type === 'list' || v.type === 'tuple' || v.type === 'set') return BigInt(v.items.length);
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
      ['list', (a, k, ctx) => (arity('list', a, k, 0, 1), { type: 'list', items: a.length ? listOf(a[0], ctx) : [] })],
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
        return { type: 'list', items };
      }],
      ['all', (a, k, ctx) => {
        arity('all', a, k, 1);
        for (const x of iterate(a[0], ctx)) if (!truthy(x)) return false;
        return true;
      }],
      ['any', (a, k, ctx) => {
        arity('any', a, k, 1);
        for (const x of iterate(a[0], ctx)) if (truthy(x)) return true;
        return false;
      }],
      ['print', pyPrint],
    ] as Array<[string, PyFunction['call']]>
  ).map(([name, call]) => [name, fn(name, call)]),
);

/** Python builtins this subset leaves out: naming one is "unsupported", not a NameError. */
const OTHER_BUILTINS = new Set(
  'divmod pow hex oct format repr map filter zip enumerate reversed dict frozenset isinstance type hash id input open eval exec getattr setattr hasattr iter next callable vars globals locals compile __import__ bytes bytearray complex object super slice ascii breakpoint memoryview classmethod staticmethod property issubclass delattr dir help'.split(' '),
);

function method(name: string, call: PyFunction['call']): PyFunction {
  return fn(name, call);
}

function strCount(s: string, sub: string): bigint {
  if (sub === '') return BigInt(pyLen(s) + 1);
  let n = 0n;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

export function getAttribute(v: PyValue, attr: string): PyValue {
  if (typeof v === 'string') {
    switch (attr) {
      case 'upper':
        return method('str.upper', (a, k) => (arity('upper', a, k, 0), v.toUpperCase()));
      case 'lower':
        return method('str.lower', (a, k) => (arity('lower', a, k, 0), v.toLowerCase()));
      case 'isalpha':
        return method('str.isalpha', (a, k) => (arity('isalpha', a, k, 0), pyIsAlpha(v)));
      case 'strip':
        return method('str.strip', (a, k) => {
          arity('strip', a, k, 0);
          return pyStrip(v);
        });
      case 'count':
        return method('str.count', (a, k) => {
          arity('count', a, k, 1);
          if (typeof a[0] !== 'string') throw new PyException('TypeError', `must be str, not ${typeName(a[0])}`);
          return strCount(v, a[0]);
        });
    }
  } else if (v !== null && typeof v === 'object') {
    switch (v.type) {
      case 'module':
      case 'function': {
        const found = v.attrs?.get(attr);
        if (found !== undefined) return found;
        if (v.type === 'module') throw new Unsupported(`${v.name}.${attr} is not supported`);
        break;
      }
      case 'list':
        if (attr === 'append') {
          return method('list.append', (a, k) => {
            arity('append', a, k, 1);
            v.items.push(a[0]);
            return null;
          });
        }
        break;
      case 'date': {
        const { year, month, day } = fromOrdinal(v.ordinal);
        switch (attr) {
          case 'year':
            return BigInt(year);
          case 'month':
            return BigInt(month);
          case 'day':
            return BigInt(day);
          case 'isoweekday':
            return method('date.isoweekday', (a, k) => (arity('isoweekday', a, k, 0), BigInt(((v.ordinal + 6) % 7) + 1)));
          case 'weekday':
            return method('date.weekday', (a, k) => (arity('weekday', a, k, 0), BigInt((v.ordinal + 6) % 7)));
          case 'toordinal':
            return method('date.toordinal', (a, k) => (arity('toordinal', a, k, 0), BigInt(v.ordinal)));
          case 'isoformat':
            return method('date.isoformat', (a, k) => (arity('isoformat', a, k, 0), pyStr(v)));
        }
        break;
      }
      case 'timedelta':
        if (attr === 'days') return v.days;
        if (attr === 'seconds' || attr === 'microseconds') return 0n;
        break;
    }
  }
  throw new Unsupported(`attribute '${attr}' of ${typeName(v)} is not supported`);
}

function normIndex(i: bigint, n: number): number {
  const j = i < 0n ? i + BigInt(n) : i;
  return j < 0n || j >= BigInt(n) ? -1 : Number(j);
}

function sliceIndices(n: number, lower: PyValue, upper: PyValue, step: PyValue): number[] {
  const toIndex = (v: PyValue): bigint | null => {
    if (v === null) return null;
    const i = asInt(v);
    if (i === undefined) throw new PyException('TypeError', 'slice indices must be integers or None or have an __index__ method');
    return i;
  };
  const st = toIndex(step) ?? 1n;
  if (st === 0n) throw new PyException('ValueError', 'slice step cannot be zero');
  const N = BigInt(n);
  const adjust = (v: bigint | null, dflt: bigint): bigint => {
    if (v === null) return dflt;
    let x = v;
    if (x < 0n) {
      x += N;
      if (x < 0n) x = st < 0n ? -1n : 0n;
    } else if (x >= N) x = st < 0n ? N - 1n : N;
    return x;
  };
  const start = adjust(toIndex(lower), st < 0n ? N - 1n : 0n);
  const stop = adjust(toIndex(upper), st < 0n ? -1n : N);
  const out: number[] = [];
  for (let i = start; st > 0n ? i < stop : i > stop; i += st) out.push(Number(i));
  return out;
}

export interface SliceValue {
  lower: PyValue;
  upper: PyValue;
  step: PyValue;
}

/** v[index] or v[lower:upper:step] for str, list and tuple. */
export function subscript(v: PyValue, index: PyValue, slice?: SliceValue): PyValue {
  if (typeof v === 'string' || (v !== null && typeof v === 'object' && (v.type === 'list' || v.type === 'tuple'))) {
    const items = typeof v === 'string' ? codePoints(v) : v.items;
    if (slice) {
      const picked = sliceIndices(items.length, slice.lower, slice.upper, slice.step).map((i) => items[i]);
      return typeof v === 'string' ? (picked as string[]).join('') : { type: v.type, items: picked };
    }
    const i = asInt(index);
    const what = typeof v === 'string' ? 'string' : v.type;
    if (i === undefined) throw new PyException('TypeError', `${what} indices must be integers${typeof v === 'string' ? '' : ' or slices'}, not ${typeName(index)}`);
    const j = normIndex(i, items.length);
    if (j < 0) throw new PyException('IndexError', `${what} index out of range`);
    return items[j];
  }
  if (v === null || typeof v !== 'object') throw new PyException('TypeError', `'${typeName(v)}' object is not subscriptable`);
  throw new Unsupported(`indexing a ${typeName(v)} is not supported`);
}

function contains(container: PyValue, item: PyValue, ctx: CallContext): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new PyException('TypeError', `'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (container !== null && typeof container === 'object' && container.type === 'range') {
    const i = asInt(item);
    if (i === undefined) {
      for (const x of iterate(container, ctx)) if (pyEquals(x, item)) return true;
      return false;
    }
    const { start, stop, step } = container;
    const inBounds = step > 0n ? i >= start && i < stop : i <= start && i > stop;
    return inBounds && (i - start) % step === 0n;
  }
  for (const x of iterate(container, ctx)) if (pyEquals(x, item)) return true;
  return false;
}

function identical(a: PyValue, b: PyValue): boolean {
  const simple = (x: PyValue) => x === null || typeof x === 'boolean';
  if (!simple(a) && !simple(b)) throw new Unsupported("'is' is only supported with None, True or False");
  return a === b;
}

export function compareValues(op: CompareOp, a: PyValue, b: PyValue, ctx: CallContext): boolean {
  switch (op) {
    case '==':
      return pyEquals(a, b);
    case '!=':
      return !pyEquals(a, b);
    case 'in':
      return contains(b, a, ctx);
    case 'not in':
      return !contains(b, a, ctx);
    case 'is':
      return identical(a, b);
    case 'is not':
      return !identical(a, b);
    default:
      return pyOrder(op, a, b);
  }
}

// ---------------------------------------------------------------------------------------------
// Evaluator

/** Variables of one scope; generator expressions get a child scope, like Python 3. */
export class Scope {
  readonly vars = new Map<string, PyValue>();
  constructor(readonly parent?: Scope) {}
}

export class Evaluator {
  constructor(readonly ctx: ExecContext) {}

  lookup(name: string, scope: Scope, line: number): PyValue {
    for (let s: Scope | undefined = scope; s; s = s.parent) if (s.vars.has(name)) return s.vars.get(name)!;
    const builtin = BUILTINS.get(name);
    if (builtin) return builtin;
    if (OTHER_BUILTINS.has(name)) throw new Unsupported(`line ${line}: builtin '${name}' is not supported`);
    throw new PyException('NameError', `name '${name}' is not defined`);
  }

  assign(target: Target, value: PyValue, scope: Scope): void {
    if (target.kind === 'name') {
      scope.vars.set(target.id, value);
      return;
    }
    const items = listOf(value, this.ctx);
    if (items.length !== target.items.length) {
      throw new PyException(
        'ValueError',
        items.length > target.items.length ? `too many values to unpack (expected ${target.items.length})` : `not enough values to unpack (expected ${target.items.length}, got ${items.length})`,
      );
    }
    target.items.forEach((t, i) => this.assign(t, items[i], scope));
  }

  eval(e: Expr, scope: Scope): PyValue {
    switch (e.kind) {
      case 'const':
        return e.value;
      case 'name':
        return this.lookup(e.id, scope, e.line);
      case 'binop':
        return binaryOp(e.op, this.eval(e.left, scope), this.eval(e.right, scope));
      case 'unary':
        return unaryOp(e.op, this.eval(e.operand, scope));
      case 'boolop': {
        let v: PyValue = null;
        for (const x of e.values) {
          v = this.eval(x, scope);
          if (e.op === 'and' ? !truthy(v) : truthy(v)) return v;
        }
        return v;
      }
      case 'compare': {
        let left = this.eval(e.left, scope);
        for (let i = 0; i < e.ops.length; i++) {
          const right = this.eval(e.comparators[i], scope);
          if (!compareValues(e.ops[i], left, right, this.ctx)) return false;
          left = right;
        }
        return true;
      }
      case 'ifexp':
        return truthy(this.eval(e.test, scope)) ? this.eval(e.body, scope) : this.eval(e.orelse, scope);
      case 'call':
        return this.call(e, scope);
      case 'attribute':
        return getAttribute(this.eval(e.value, scope), e.attr);
      case 'subscript': {
        const v = this.eval(e.value, scope);
        if (e.index.kind === 'slice') {
          const part = (x: Expr | null) => (x ? this.eval(x, scope) : null);
          return subscript(v, null, { lower: part(e.index.lower), upper: part(e.index.upper), step: part(e.index.step) });
        }
        return subscript(v, this.eval(e.index, scope));
      }
      case 'tuple':
      case 'list':
        return { type: e.kind, items: e.items.map((x) => this.eval(x, scope)) };
      case 'set':
        return { type: 'set', items: dedupe(e.items.map((x) => this.eval(x, scope)), this.ctx) };
      case 'genexp':
        return { type: 'iterator', name: 'generator', iter: this.comprehension(e, scope) };
      case 'listcomp':
        return { type: 'list', items: [...this.comprehension(e, scope)] };
      case 'setcomp':
        return { type: 'set', items: dedupe([...this.comprehension(e, scope)], this.ctx) };
    }
  }

  /** The outermost iterable is evaluated at once in the enclosing scope; the rest lazily, per item. */
  private comprehension(c: Comprehension, scope: Scope): Generator<PyValue> {
    const source = this.eval(c.iter, scope);
    const items = iterate(source, this.ctx);
    const self = this;
    return (function* () {
      for (const item of items) {
        self.ctx.step();
        const inner = new Scope(scope);
        self.assign(c.target, item, inner);
        if (c.conds.every((cond) => truthy(self.eval(cond, inner)))) yield self.eval(c.elt, inner);
      }
    })();
  }

  private call(e: Extract<Expr, { kind: 'call' }>, scope: Scope): PyValue {
    const f = this.eval(e.func, scope);
    if (f === BUILTINS.get('sum') && e.args.length === 1 && e.keywords.length === 0 && e.args[0].kind === 'genexp') {
      const fast = this.countingSum(e.args[0], scope);
      if (fast !== undefined) return fast;
    }
    const args = e.args.map((a) => this.eval(a, scope));
    const kwargs = new Map<string, PyValue>();
    for (const [k, v] of e.keywords) kwargs.set(k, this.eval(v, scope));
    if (f === null || typeof f !== 'object' || f.type !== 'function') {
      throw new PyException('TypeError', `'${typeName(f)}' object is not callable`);
    }
    return f.call(args, kwargs, this.ctx);
  }

  /**
   * Exact shortcuts for two counting idioms of the legs, which would otherwise loop up to n:
   *   sum(1 for i in range(a, b) if n % i == 0)          -> divisors of n in [a, b)
   *   sum(1 for y in range(a, b) if calendar.isleap(y))  -> leap years in [a, b)
   * Anything not exactly of this form (or with a < 1 for divisors) takes the ordinary path.
   */
  private countingSum(g: Comprehension, scope: Scope): PyValue | undefined {
    // Any failure here (say an undefined name behind an empty range) falls back to the ordinary path,
    // which raises exactly when Python would.
    try {
      return this.countingSumUnguarded(g, scope);
    } catch {
      return undefined;
    }
  }

  private countingSumUnguarded(g: Comprehension, scope: Scope): PyValue | undefined {
    if (g.elt.kind !== 'const' || g.elt.value !== 1n || g.target.kind !== 'name' || g.conds.length !== 1) return undefined;
    const v = g.target.id;
    if (g.iter.kind !== 'call' || g.iter.keywords.length || g.iter.args.length !== 2) return undefined;
    if (this.eval(g.iter.func, scope) !== BUILTINS.get('range')) return undefined;
    const cond = g.conds[0];

    const isVar = (x: Expr) => x.kind === 'name' && x.id === v;
    if (
      cond.kind === 'compare' && cond.ops.length === 1 && cond.ops[0] === '==' &&
      cond.comparators[0].kind === 'const' && cond.comparators[0].value === 0n &&
      cond.left.kind === 'binop' && cond.left.op === '%' && isVar(cond.left.right) && pureWithout(cond.left.left, v)
    ) {
      const a = asInt(this.eval(g.iter.args[0], scope));
      const b = asInt(this.eval(g.iter.args[1], scope));
      const n = asInt(this.eval(cond.left.left, scope));
      if (a === undefined || b === undefined || n === undefined || a < 1n) return undefined;
      this.ctx.step();
      if (n === 0n) return b > a ? b - a : 0n;
      return BigInt(divisors(absBig(n)).filter((d) => d >= a && d < b).length);
    }

    const plainName = (x: Expr): boolean => (x.kind === 'name' && x.id !== v) || (x.kind === 'attribute' && plainName(x.value));
    if (cond.kind === 'call' && cond.args.length === 1 && cond.keywords.length === 0 && isVar(cond.args[0]) && plainName(cond.func)) {
      if (this.eval(cond.func, scope) !== ISLEAP) return undefined;
      const a = asInt(this.eval(g.iter.args[0], scope));
      const b = asInt(this.eval(g.iter.args[1], scope));
      if (a === undefined || b === undefined) return undefined;
      this.ctx.step();
      return leapYearsBetween(a, b - 1n);
    }
    return undefined;
  }
}

/** True when e only reads names other than `v` and does no calls, so it is loop-invariant. */
function pureWithout(e: Expr, v: string): boolean {
  switch (e.kind) {
    case 'const':
      return true;
    case 'name':
      return e.id !== v;
    case 'binop':
      return pureWithout(e.left, v) && pureWithout(e.right, v);
    case 'unary':
      return pureWithout(e.operand, v);
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Public API

export type Failure = { ok: false; kind: 'unsupported' | 'error'; message: string };
export type EvalResult = { ok: true; value: PyValue } | Failure;

/** Turns anything thrown while parsing or evaluating into a failure: never throws itself. */
export function toFailure(error: unknown): Failure {
  if (error instanceof PyException) return { ok: false, kind: 'error', message: error.message };
  if (error instanceof PySyntaxError) return { ok: false, kind: 'error', message: `SyntaxError: ${error.message}` };
  if (error instanceof Unsupported) return { ok: false, kind: 'unsupported', message: `unsupported: ${error.message}` };
  if (error instanceof RangeError) return { ok: false, kind: 'unsupported', message: `unsupported: too large or too deep (${error.message})` };
  return { ok: false, kind: 'unsupported', message: `unsupported: internal error: ${error instanceof Error ? error.message : String(error)}` };
}

export interface EvaluateOptions {
  /** Extra names; `digital_root` is always defined. */
  names?: Record<string, PyValue>;
  maxSteps?: number;
}

/**
 * Evaluates one Python expression, e.g. a compute stop's `bridge.expression`
 * (`(1237 + 1237 + 686 + 2) % 10`, `abs(0 - 23317031) % 10`, `digital_root(336 + 316 + 108)`).
 */
export function evaluateExpression(source: string, options: EvaluateOptions = {}): EvalResult {
  try {
    const expr = parseExpression(source);
    const scope = new Scope();
    scope.vars.set('digital_root', DIGITAL_ROOT);
    for (const [k, v] of Object.entries(options.names ?? {})) scope.vars.set(k, v);
    return { ok: true, value: new Evaluator(new ExecContext(options.maxSteps)).eval(expr, scope) };
  } catch (error) {
    return toFailure(error);
  }
}

/** Re-exported for callers that print evaluated values (e.g. the oracle agent). */
export { pyRepr, pyStr } from './pyvalue.js';
