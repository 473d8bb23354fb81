/**
 * Parser and evaluator for Python expressions, with Python semantics (see pyvalue.ts):
 * ints are BigInt, `/` is true division, `//` and `%` floor, `**` with a negative exponent is a float.
 *
 * Supported: literals, names, + - * / // % **, unary - + ~ not, comparisons (chained, in, not in),
 * and/or, `x if c else y`, calls (positional and keyword arguments), attributes, indexing and
 * slicing, tuples, lists, sets, and one-`for` generator expressions / comprehensions.
 * The builtins are listed in BUILTINS; anything else is reported as unsupported.
 *
 * This module is the public entry: evaluateExpression and toFailure, and re-exports of the pieces
 * (pyast, pyparser, pyruntime, pybuiltins, pyattributes, pyoperators, pyevaluator) other files use.
 */
import { DIGITAL_ROOT_FUNCTION } from './builtins.js';
import { Evaluator, Scope } from './evaluator.js';
import { PySyntaxError } from './lexer.js';
import { parseExpression } from './parser.js';
import { ExecContext } from './runtime.js';
import { PyException, Unsupported, type PyValue } from './index.js';

export { KEYWORDS, type CompareOp, type Comprehension, type Expr, type SliceExpr, type Target } from './ast.js';
export { getAttribute } from './attributes.js';
export { BUILTINS, DIGITAL_ROOT_FUNCTION, MODULES } from './builtins.js';
export { Evaluator, Scope } from './evaluator.js';
export { compareValues, subscript, type SliceValue } from './operators.js';
export { Parser, parseExpression } from './parser.js';
export { DEFAULT_MAX_STEPS, ExecContext, iterate } from './runtime.js';

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
    scope.vars.set('digital_root', DIGITAL_ROOT_FUNCTION);
    for (const [k, v] of Object.entries(options.names ?? {})) scope.vars.set(k, v);
    return { ok: true, value: new Evaluator(new ExecContext(options.maxSteps)).eval(expr, scope) };
  } catch (error) {
    return toFailure(error);
  }
}

/** Re-exported for callers that print evaluated values (e.g. the oracle agent). */
export { pyRepr, pyStr } from './index.js';
