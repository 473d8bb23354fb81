/**
 * Parser for Python expressions: literals, names, + - * / // % **, unary - + ~ not, comparisons
 * (chained, in, not in, is), and/or, `x if c else y`, calls, attributes, indexing and slicing,
 * tuples, lists, sets, and one-`for` generator expressions / comprehensions.
 */
import { KEYWORDS, type CompareOp, type Comprehension, type Expr, type SliceExpr, type Target } from './ast.js';
import { TokenCursor, UNSUPPORTED_OPERATORS } from './cursor.js';
import { tokenize } from './lexer.js';
import { Unsupported, type BinaryOperator } from './index.js';

/** The expression grammar over a token cursor; pyprogram.ts parses statements with it too. */
export class Parser extends TokenCursor {
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
