import { isMap, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { InputError, type InputProblem } from './problems.js';

/**
 * A YAML file checked against a zod schema. Every problem is one line naming the file, the line and
 * column, and the key: `world.yaml:12:5: places[2].lat: Too big: expected number to be <=90`.
 */
export function parseYamlFile<S extends z.ZodType>(file: string, text: string, schema: S): z.infer<S> {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length) {
    throw new InputError(doc.errors.map((e) => ({ file: at(file, counter, e.pos[0]), path: '', message: `YAML syntax: ${e.message.split('\n')[0]}` })));
  }
  if (!isMap(doc.contents)) throw new InputError([{ file, path: '', message: 'expected a YAML mapping (key: value lines)' }]);
  const parsed = schema.safeParse(doc.toJS());
  if (parsed.success) return parsed.data;
  const problems: InputProblem[] = parsed.error.issues.map((issue) => {
    let node: unknown;
    for (let n = issue.path.length; n >= 0 && !node; n--) node = doc.getIn(issue.path.slice(0, n) as (string | number)[], true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    return { file: range ? at(file, counter, range[0]) : file, path: dotted(issue.path), message: issue.message };
  });
  throw new InputError(problems.map((p) => ({ ...p, path: '', message: p.path ? `${p.path}: ${p.message}` : p.message })));
}

function at(file: string, counter: LineCounter, offset: number): string {
  const { line, col } = counter.linePos(offset);
  return `${file}:${line}:${col}`;
}

const dotted = (segments: readonly PropertyKey[]): string =>
  segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${String(s)}`)).join('');
