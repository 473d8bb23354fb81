/**
 * Parser for Python expressions: literals, names, + - * / // % **, unary - + ~ not, comparisons
 * (chained, in, not in, is), and/or, `x if c else y`, calls, attributes, indexing and slicing,
 * tuples, lists, sets, and one-`for` generator expressions / comprehensions.
 */
import { KEYWORDS, type CompareOp, type Expr } from './ast.js';
import { UNSUPPORTED_OPERATORS } from './cursor.js';
import { AtomParser } from './parser-atoms.js';
import { tokenize } from './lexer.js';
import type { BinaryOperator } from './index.js';

/** The expression grammar over a token cursor (atoms and trailers in parser-atoms.ts); program.ts parses statements with it too. */
export class Parser extends AtomParser {
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
