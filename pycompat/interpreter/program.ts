/**
 * A restricted interpreter for the short Python programs in legs: `bridge.expression_code`,
 * `reason_code`, and the `code` argument of `python_execute_code` tool steps.
 *
 * Statements: `import datetime` / `import calendar` / `from datetime import date` /
 * `from calendar import isleap`, assignments (`x = ...`, `a, b = ...`, `x += ...`), expression
 * statements such as `print(...)`, `pass`, and `def` blocks of the known helpers. A `def` is not
 * interpreted: its name selects a native implementation, and its body must be token-for-token the
 * body the legs use (KNOWN_DEFS), else the program is unsupported. Anything else (if/for/while at
 * top level, other imports, classes, ...) is reported as unsupported, never guessed.
 */
import { PySyntaxError, tokenize, type Token } from './lexer.js';
import {
  Evaluator,
  ExecContext,
  KEYWORDS,
  MODULES,
  Parser,
  Scope,
  toFailure,
  type Expr,
  type Failure,
  type Target,
} from './expression.js';
import { KNOWN_DEFS, canonical, tokenKeys, verbatimDefs } from './known-defs.js';
import { Unsupported, binaryOp, type BinaryOperator, type PyValue } from './index.js';

export { KNOWN_DEFS } from './known-defs.js';

const AUGMENTED: Record<string, BinaryOperator> = {
  '+=': '+', '-=': '-', '*=': '*', '/=': '/', '//=': '//', '%=': '%', '**=': '**',
};

const UNSUPPORTED_STATEMENTS = new Set([
  'if', 'elif', 'else', 'for', 'while', 'with', 'try', 'except', 'finally', 'class', 'return', 'del', 'global',
  'nonlocal', 'assert', 'raise', 'break', 'continue', 'yield', 'async', 'await', 'lambda',
]);

export type ProgramResult =
  | { ok: true; stdout: string; printed: PyValue[][] }
  | (Failure & { stdout: string });

export interface RunOptions {
  /** Loop steps allowed before the program is reported as unsupported (default 1,000,000). */
  maxSteps?: number;
}

/** A parsed top-level statement; imports and known defs are resolved to the values they bind. */
type Statement =
  | { kind: 'bind'; bindings: Array<[string, PyValue]> }
  | { kind: 'assign'; targets: Target[]; value: Expr }
  | { kind: 'augassign'; target: string; op: BinaryOperator; value: Expr; line: number }
  | { kind: 'expr'; value: Expr };

/**
 * A program is parsed whole before it runs, as Python compiles a module first: a syntax error
 * anywhere means nothing runs.
 */
class Program {
  readonly parser: Parser;
  readonly scope = new Scope();
  readonly evaluator: Evaluator;

  constructor(
    tokens: Token[],
    readonly ctx: ExecContext,
  ) {
    this.parser = new Parser(tokens);
    this.evaluator = new Evaluator(ctx);
  }

  parse(): Statement[] {
    const p = this.parser;
    const statements: Statement[] = [];
    for (;;) {
      const t = p.peek();
      if (t.type === 'end') return statements;
      if (t.type === 'newline') {
        p.next();
        continue;
      }
      if (t.type === 'indent') throw new PySyntaxError('unexpected indent', t.line);
      if (t.type === 'name' && t.value === 'def') {
        statements.push(this.def());
        continue;
      }
      if (t.type === 'name' && UNSUPPORTED_STATEMENTS.has(t.value)) {
        throw new Unsupported(`line ${t.line}: '${t.value}' statements are not supported`);
      }
      if (t.type === 'op' && t.value === '@') throw new Unsupported(`line ${t.line}: decorators are not supported`);
      const one = this.simpleStatement();
      if (one) statements.push(one);
      while (p.acceptOp(';')) {
        if (p.peek().type === 'newline' || p.peek().type === 'end') break;
        const more = this.simpleStatement();
        if (more) statements.push(more);
      }
      if (p.peek().type !== 'newline' && p.peek().type !== 'end') p.fail('expected end of statement');
    }
  }

  execute(statements: Statement[]): void {
    const { evaluator, scope } = this;
    for (const st of statements) {
      switch (st.kind) {
        case 'bind':
          for (const [name, value] of st.bindings) scope.vars.set(name, value);
          break;
        case 'assign': {
          const v = evaluator.eval(st.value, scope);
          for (const target of st.targets) evaluator.assign(target, v, scope);
          break;
        }
        case 'augassign': {
          const left = evaluator.lookup(st.target, scope, st.line);
          const right = evaluator.eval(st.value, scope);
          scope.vars.set(st.target, binaryOp(st.op, left, right));
          break;
        }
        case 'expr':
          evaluator.eval(st.value, scope);
          break;
      }
    }
  }

  private def(): Statement {
    const p = this.parser;
    const start = p.pos;
    const line = p.peek().line;
    p.next();
    const nameToken = p.next();
    if (nameToken.type !== 'name' || KEYWORDS.has(nameToken.value)) {
      p.back(nameToken);
      p.fail('expected a function name');
    }
    const name = nameToken.value;
    // Skip the header up to its ':' and then the whole suite.
    let depth = 0;
    while (!(p.isOp(':') && depth === 0)) {
      const t = p.next();
      if (t.type === 'end' || t.type === 'newline') throw new PySyntaxError("expected ':'", t.line);
      if (t.type === 'op' && '([{'.includes(t.value)) depth++;
      if (t.type === 'op' && ')]}'.includes(t.value)) depth--;
    }
    p.next();
    if (p.peek().type === 'newline') {
      p.next();
      if (p.peek().type !== 'indent') throw new PySyntaxError('expected an indented block after function definition', p.peek().line);
      let level = 0;
      do {
        const t = p.next();
        if (t.type === 'indent') level++;
        else if (t.type === 'dedent') level--;
        else if (t.type === 'end') break;
      } while (level > 0);
    } else {
      while (p.peek().type !== 'newline' && p.peek().type !== 'end') p.next();
      p.next();
    }
    const known = Object.hasOwn(KNOWN_DEFS, name) ? KNOWN_DEFS[name] : undefined;
    if (!known) throw new Unsupported(`line ${line}: def ${name}() is not one of the known helpers (${Object.keys(KNOWN_DEFS).join(', ')})`);
    const got = tokenKeys(p.tokens.slice(start, p.pos));
    const want = canonical(name);
    if (got.length !== want.length || got.some((k, i) => k !== want[i])) {
      throw new Unsupported(`line ${line}: def ${name}() differs from the known ${name}, and function bodies are not interpreted`);
    }
    return { kind: 'bind', bindings: [[name, known.fn]] };
  }

  /** One simple statement; null for `pass`. */
  private simpleStatement(): Statement | null {
    const p = this.parser;
    const t = p.peek();
    if (t.type === 'name' && t.value === 'pass') {
      p.next();
      return null;
    }
    const modules = (): string => Object.keys(MODULES).join(', ');
    if (t.type === 'name' && t.value === 'import') {
      p.next();
      const bindings: Array<[string, PyValue]> = [];
      do {
        const mod = this.dottedName();
        const alias = p.acceptKeyword('as') ? this.name() : mod;
        const module = Object.hasOwn(MODULES, mod) ? MODULES[mod] : undefined;
        if (!module) throw new Unsupported(`line ${t.line}: import of module '${mod}' is not supported (only ${modules()})`);
        bindings.push([alias, module]);
      } while (p.acceptOp(','));
      return { kind: 'bind', bindings };
    }
    if (t.type === 'name' && t.value === 'from') {
      p.next();
      const mod = this.dottedName();
      p.expectKeyword('import');
      const module = Object.hasOwn(MODULES, mod) ? MODULES[mod] : undefined;
      if (!module) throw new Unsupported(`line ${t.line}: import from module '${mod}' is not supported (only ${modules()})`);
      if (p.isOp('*')) throw new Unsupported(`line ${t.line}: 'from ${mod} import *' is not supported`);
      const paren = p.acceptOp('(');
      const bindings: Array<[string, PyValue]> = [];
      do {
        if (paren && p.isOp(')')) break;
        const attr = this.name();
        const alias = p.acceptKeyword('as') ? this.name() : attr;
        const value = module.attrs.get(attr);
        if (value === undefined) throw new Unsupported(`line ${t.line}: ${mod}.${attr} is not supported`);
        bindings.push([alias, value]);
      } while (p.acceptOp(','));
      if (paren) p.expectOp(')');
      return { kind: 'bind', bindings };
    }

    const first = p.exprList();
    const op = p.peek();
    if (op.type === 'op' && Object.hasOwn(AUGMENTED, op.value)) {
      p.next();
      const target = toTarget(first);
      if (target.kind !== 'name') throw new PySyntaxError("'tuple' is an illegal expression for augmented assignment", op.line);
      return { kind: 'augassign', target: target.id, op: AUGMENTED[op.value], value: p.exprList(), line: op.line };
    }
    if (op.type === 'op' && op.value === '=') {
      const targets: Target[] = [toTarget(first)];
      let value = first;
      while (p.acceptOp('=')) {
        value = p.exprList();
        if (p.isOp('=')) targets.push(toTarget(value));
      }
      return { kind: 'assign', targets, value };
    }
    return { kind: 'expr', value: first };
  }

  private name(): string {
    const t = this.parser.next();
    if (t.type !== 'name' || KEYWORDS.has(t.value)) {
      this.parser.back(t);
      this.parser.fail('expected a name');
    }
    return t.value;
  }

  private dottedName(): string {
    let name = this.name();
    while (this.parser.acceptOp('.')) name += `.${this.name()}`;
    return name;
  }
}

function toTarget(e: Expr): Target {
  if (e.kind === 'name') return { kind: 'name', id: e.id };
  if (e.kind === 'tuple' || e.kind === 'list') return { kind: 'tuple', items: e.items.map(toTarget) };
  if (e.kind === 'attribute' || e.kind === 'subscript') throw new Unsupported(`line ${e.line}: assignment to an attribute or item is not supported`);
  throw new PySyntaxError('cannot assign to expression', e.line);
}

/** Runs a program and captures what it prints; never throws. */
export function runProgram(code: string, options: RunOptions = {}): ProgramResult {
  const ctx = new ExecContext(options.maxSteps);
  try {
    const { defs, rest, lines } = verbatimDefs(code);
    const program = new Program(tokenize(rest, lines + 1), ctx);
    const statements: Statement[] = [{ kind: 'bind', bindings: defs.map((name): [string, PyValue] => [name, KNOWN_DEFS[name].fn]) }];
    statements.push(...program.parse());
    program.execute(statements);
    return { ok: true, stdout: ctx.output.join(''), printed: ctx.printed };
  } catch (error) {
    return { ...toFailure(error), stdout: ctx.output.join('') };
  }
}
