import type { z } from 'zod';
import { locateJsonError } from '../common/json-syntax.js';

/** One thing wrong with one input file, printed as a single line: `file: $.json.path: message`. */
export interface InputProblem {
  file: string;
  /** JSON path such as `$.stops[3].depends_on[0]`, or '' when the problem is with the file as a whole. */
  path: string;
  message: string;
}

export function formatProblem(p: InputProblem): string {
  return p.path ? `${p.file}: ${p.path}: ${p.message}` : `${p.file}: ${p.message}`;
}

export function jsonPath(segments: readonly PropertyKey[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}

/** Zod issues as problems, one per issue, with the received type spelled out. */
export function zodProblems(file: string, error: z.ZodError): InputProblem[] {
  return error.issues.map((issue) => ({ file, path: jsonPath(issue.path), message: issue.message }));
}

/** JSON.parse failure as a one-line problem with the line and column where the text goes wrong. */
export function jsonSyntaxProblem(file: string, text: string, error: unknown): InputProblem {
  const located = locateJsonError(text);
  if (!located) return { file, path: '', message: `invalid JSON: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}` };
  const before = text.slice(0, located.offset);
  const line = before.split('\n').length;
  const column = located.offset - before.lastIndexOf('\n');
  return { file, path: '', message: `invalid JSON at line ${line} column ${column}: ${located.message}` };
}

/** Thrown where a caller cannot go on with bad input; the message is already one line per problem. */
export class InputError extends Error {
  constructor(readonly problems: InputProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'InputError';
  }
}
