/** The evaluator of expression trees, with Python 3 scoping for comprehensions. */
import type { Comprehension, Expr, Target } from './ast.js';
import { getAttribute } from './attributes.js';
import { BUILTINS, ISLEAP, OTHER_BUILTINS } from './builtins.js';
import { compareValues, subscript } from './operators.js';
import { dedupe, iterate, listOf, type ExecContext } from './runtime.js';
import { PyException, Unsupported, isPyObject, absBig, asInt, binaryOp, pyTruthy, typeName, unaryOp, type PyValue } from './index.js';
import { divisors, leapYearsBetween } from './number-theory.js';

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
          if (e.op === 'and' ? !pyTruthy(v) : pyTruthy(v)) return v;
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
        return pyTruthy(this.eval(e.test, scope)) ? this.eval(e.body, scope) : this.eval(e.orelse, scope);
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
        return { type: 'tuple', items: e.items.map((x) => this.eval(x, scope)) };
      case 'list':
        return e.items.map((x) => this.eval(x, scope));
      case 'set':
        return { type: 'set', items: dedupe(e.items.map((x) => this.eval(x, scope)), this.ctx) };
      case 'genexp':
        return { type: 'iterator', name: 'generator', iter: this.comprehension(e, scope) };
      case 'listcomp':
        return [...this.comprehension(e, scope)];
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
        if (c.conds.every((cond) => pyTruthy(self.eval(cond, inner)))) yield self.eval(c.elt, inner);
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
    if (!isPyObject(f) || f.type !== 'function') {
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
