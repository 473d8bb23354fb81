/** The syntax tree of Python expressions, as the parser builds it and the evaluator walks it. */
import type { BinaryOperator, PyValue } from './index.js';

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
