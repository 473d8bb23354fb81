/**
 * The innermost layer of the expression grammar: atoms (literals, names, displays, parenthesised
 * forms), the trailers after them (calls, subscripts and slices, attributes), comprehensions and
 * assignment targets. The precedence levels above them are in parser.ts.
 */
import { KEYWORDS, type Comprehension, type Expr, type SliceExpr, type Target } from './ast.js';
import { TokenCursor } from './cursor.js';
import { Unsupported } from './index.js';

export abstract class AtomParser extends TokenCursor {
  abstract expression(): Expr;
  abstract orTest(): Expr;

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
