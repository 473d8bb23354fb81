/**
 * The golden executor as a validator: recomputes every derived value of a leg natively and reports
 * where the leg disagrees with itself.
 *
 * Checks, by kind:
 *   reason_transform    a reason stop's transform applied to its source stop's extracted_value
 *   reason_code         a reason stop's reason_code, run, prints its extracted_value
 *   compute_expression  a compute stop's bridge.expression evaluates to its extracted_value
 *   compute_code        a compute stop's bridge.expression_code, run, prints its extracted_value
 *   passcode            the last compute stop's extracted_value is the leg's passcode
 *   tool_code           each python_execute_code step runs; the last step of a chain prints the stop's extracted_value
 * Values compare numerically when both are numbers (so 20 and 20.0 agree), otherwise by Python str().
 * Unknown transforms and programs outside the supported subset are mismatches, with the reason.
 *
 * A reason stop whose transform of the source stop's value disagrees, while its reason_code reproduces its
 * value and the same transform of the input written in that code gives its value too, is a note, not a
 * mismatch: its golden trace is consistent, and the source stop's value changed after the reason stop was
 * computed (in the released data: 28 place counts refreshed after generation). Notes are listed but do not
 * fail validation.
 */
import type { LoadedLeg } from '../load.js';
import type { JsonValue, Stop } from '../schema.js';
import { applyTransform } from './transforms.js';
import { evaluateExpression } from '../../../pycompat/interpreter/expression.js';
import { runProgram } from '../../../pycompat/interpreter/program.js';
import { tokenize, type Token } from '../../../pycompat/interpreter/lexer.js';
import { jsonPyStr, pyStr, type Json } from '../../../pycompat/interpreter/index.js';
import { programOutcome, sameJson, sameValue, showComputed, showExpected, strOrNull } from './compare-values.js';

export const CHECK_KINDS = ['reason_transform', 'reason_code', 'compute_expression', 'compute_code', 'passcode', 'tool_code'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export interface ValidationMismatch {
  /** Leg id, e.g. `aar-dag/easy/sample_003`. */
  id: string;
  file: string;
  /** The stop's `index`; null when the problem is with the leg as a whole. */
  stop: number | null;
  /** JSON path of the value that disagrees, or of the program that could not run: `$.stops[7].extracted_value`. */
  path: string;
  kind: CheckKind;
  /** What the leg says. */
  expected: JsonValue;
  /** Python str() of what was computed; null when nothing could be computed. */
  computed: string | null;
  /** One line, saying what was computed from what, or why it could not be. */
  message: string;
}

export interface ValidationReport {
  legs: number;
  /** Checks made, by kind (every kind present, possibly 0). */
  checks: Record<CheckKind, number>;
  mismatches: ValidationMismatch[];
  /** Stale source values (see above): reported, not failures. */
  notes: ValidationMismatch[];
}

export type ValidatableLeg = Pick<LoadedLeg, 'id' | 'file' | 'leg'>;

function emptyChecks(): Record<CheckKind, number> {
  return Object.fromEntries(CHECK_KINDS.map((k) => [k, 0])) as Record<CheckKind, number>;
}

function oneLine(code: string): string {
  const flat = code.replace(/\s*\n\s*/g, ' \u23ce ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}


/**
 * The literal a reason_code starts from, when the transform applied to it gives the expected value: the
 * number or string literals outside its `def` blocks are the candidates (e.g. `next_prime(55225)`).
 */
function inputWrittenInCode(name: string, code: string, expected: JsonValue): string | undefined {
  const outside: string[] = [];
  let inDef = false;
  for (const line of code.split('\n')) {
    if (line.startsWith('def ')) inDef = true;
    else if (!inDef || !/^\s/.test(line)) {
      inDef = false;
      outside.push(line);
    }
  }
  const body = outside.join('\n');
  let tokens: Token[];
  try {
    tokens = tokenize(body);
  } catch {
    return undefined;
  }
  for (const t of tokens) {
    if (t.type !== 'int' && t.type !== 'float' && t.type !== 'string') continue;
    const candidate: JsonValue = t.type === 'string' ? t.value : Number(t.value);
    const outcome = applyTransform(name, candidate);
    if (outcome.ok && sameValue(expected, outcome.value)) return t.type === 'string' ? JSON.stringify(t.value) : t.value;
  }
  return undefined;
}

class LegValidator {
  readonly checks = emptyChecks();
  readonly mismatches: ValidationMismatch[] = [];
  readonly notes: ValidationMismatch[] = [];

  constructor(readonly loaded: ValidatableLeg) {}

  private mismatch(kind: CheckKind, stop: Stop | null, path: string, expected: JsonValue, computed: string | null, message: string, asNote = false): void {
    (asNote ? this.notes : this.mismatches).push({ id: this.loaded.id, file: this.loaded.file, stop: stop ? stop.index : null, path, kind, expected, computed, message });
  }

  /** Runs a program and compares what it prints with the stop's extracted_value; true when it agrees. */
  private checkProgram(kind: CheckKind, stop: Stop, at: string, codePath: string, code: JsonValue | undefined, what: string, compare: boolean): boolean {
    this.checks[kind]++;
    const expected = stop.extracted_value;
    if (typeof code !== 'string') {
      this.mismatch(kind, stop, codePath, expected, null, `${what} is missing or not a string`);
      return false;
    }
    const result = runProgram(code);
    if (!result.ok) {
      this.mismatch(kind, stop, codePath, expected, null, `${what} \`${oneLine(code)}\` cannot run: ${result.message}`);
      return false;
    }
    if (!compare) return true;
    const outcome = programOutcome(result, expected);
    if (!outcome.same) {
      this.mismatch(kind, stop, `${at}.extracted_value`, expected, outcome.computed, `${what} ${outcome.shown}, but extracted_value is ${showExpected(expected)}`);
    }
    return outcome.same;
  }

  private reason(stop: Stop, at: string): void {
    const { leg } = this.loaded;
    const expected = stop.extracted_value;
    const codeAgrees = this.checkProgram('reason_code', stop, at, `${at}.reason_code`, stop.reason_code ?? undefined, 'reason_code', true);
    this.checks.reason_transform++;
    const name = stop.reason_transform;
    const source = leg.stops.find((s) => s.index === stop.reason_source_stop);
    if (name === null) {
      this.mismatch('reason_transform', stop, `${at}.reason_transform`, expected, null, 'reason stop has no reason_transform');
    } else if (!source) {
      this.mismatch('reason_transform', stop, `${at}.reason_source_stop`, expected, null, `source stop ${stop.reason_source_stop} does not exist`);
    } else {
      const outcome = applyTransform(name, source.extracted_value);
      const call = `${name}(${showExpected(source.extracted_value)}) of stop ${source.index}`;
      if (!outcome.ok) {
        const path = outcome.message.startsWith('unknown reason transform') ? `${at}.reason_transform` : `${at}.extracted_value`;
        this.mismatch('reason_transform', stop, path, expected, null, `${call} cannot be computed: ${outcome.message}`);
      } else if (!sameValue(expected, outcome.value)) {
        const input = codeAgrees ? inputWrittenInCode(name, stop.reason_code ?? '', expected) : undefined;
        const message =
          input !== undefined
            ? `stale source: ${call} is ${outcome.value}, but reason_code computes extracted_value ${showExpected(expected)} as ${name}(${input}): stop ${source.index}'s value changed after this stop was computed`
            : `${call} is ${outcome.value}, but extracted_value is ${showExpected(expected)}`;
        this.mismatch('reason_transform', stop, `${at}.extracted_value`, expected, pyStr(outcome.value), message, input !== undefined);
      }
    }
  }

  private compute(stop: Stop, at: string): void {
    const expected = stop.extracted_value;
    const expression = stop.bridge.expression;
    this.checks.compute_expression++;
    if (expression === null) {
      this.mismatch('compute_expression', stop, `${at}.bridge.expression`, expected, null, 'compute stop has no expression');
    } else {
      const result = evaluateExpression(expression);
      if (!result.ok) {
        this.mismatch('compute_expression', stop, `${at}.bridge.expression`, expected, null, `expression \`${expression}\` cannot be evaluated: ${result.message}`);
      } else if (!sameValue(expected, result.value)) {
        this.mismatch('compute_expression', stop, `${at}.extracted_value`, expected, strOrNull(result.value), `expression \`${expression}\` is ${showComputed(result.value)}, but extracted_value is ${showExpected(expected)}`);
      }
    }
    this.checkProgram('compute_code', stop, at, `${at}.bridge.expression_code`, stop.bridge.expression_code ?? undefined, 'expression_code', true);
  }

  private toolChain(stop: Stop, at: string): void {
    const chain = stop.bridge.tool_chain;
    chain.forEach((step, j) => {
      if (step.tool_name !== 'python_execute_code') return;
      const codePath = `${at}.bridge.tool_chain[${j}].arguments.code`;
      const last = j === chain.length - 1;
      this.checkProgram('tool_code', stop, at, codePath, step.arguments.code, `tool_chain[${j}] python_execute_code`, last);
    });
  }

  run(): void {
    const { leg } = this.loaded;
    let lastCompute: { stop: Stop; position: number } | null = null;
    leg.stops.forEach((stop, position) => {
      const at = `$.stops[${position}]`;
      if (stop.stop_type === 'reason') this.reason(stop, at);
      if (stop.stop_type === 'compute') {
        this.compute(stop, at);
        lastCompute = { stop, position };
      }
      this.toolChain(stop, at);
    });

    this.checks.passcode++;
    const final = lastCompute as { stop: Stop; position: number } | null;
    if (!final) {
      this.mismatch('passcode', null, '$.stops', leg.passcode, null, 'the leg has no compute stop to give the passcode');
    } else if (!sameJson(leg.passcode, final.stop.extracted_value)) {
      this.mismatch(
        'passcode',
        final.stop,
        '$.passcode',
        leg.passcode,
        jsonPyStr(final.stop.extracted_value as Json),
        `passcode is ${leg.passcode}, but the last compute stop ($.stops[${final.position}]) gives ${showExpected(final.stop.extracted_value)}`,
      );
    }
  }
}

/** Validates one leg. */
export function validateLeg(loaded: ValidatableLeg): ValidationReport {
  const v = new LegValidator(loaded);
  v.run();
  return { legs: 1, checks: v.checks, mismatches: v.mismatches, notes: v.notes };
}

/** Validates many legs into one report. */
export function validateLegs(legs: readonly ValidatableLeg[]): ValidationReport {
  const report: ValidationReport = { legs: 0, checks: emptyChecks(), mismatches: [], notes: [] };
  for (const leg of legs) {
    const r = validateLeg(leg);
    report.legs += r.legs;
    for (const k of CHECK_KINDS) report.checks[k] += r.checks[k];
    report.mismatches.push(...r.mismatches);
    report.notes.push(...r.notes);
  }
  return report;
}

const describe = (x: ValidationMismatch): string =>
  `${x.file}: ${x.path}: [${x.kind}] ${x.stop === null ? `leg ${x.id}` : `leg ${x.id}, stop ${x.stop}`}: ${x.message}`;

/**
 * A short summary: legs, checks per kind, mismatches and notes; then one line per mismatch
 * (`file: path: [kind] leg id, stop n: message`), and with `notes`, one line per note.
 */
export function formatValidationReport(report: ValidationReport, options: { notes?: boolean } = {}): string {
  const total = CHECK_KINDS.reduce((n, k) => n + report.checks[k], 0);
  const perKind = CHECK_KINDS.map((k) => `${report.checks[k]} ${k}`).join(', ');
  const m = report.mismatches.length;
  const n = report.notes.length;
  const lines = [
    `validated ${report.legs} leg${report.legs === 1 ? '' : 's'}: ${total} checks (${perKind}); ${m} mismatch${m === 1 ? '' : 'es'}` +
      (n ? `; ${n} note${n === 1 ? '' : 's'} (stale source values${options.notes ? '' : ', see --notes'})` : ''),
  ];
  lines.push(...report.mismatches.map(describe));
  if (options.notes) lines.push(...report.notes.map(describe));
  return lines.join('\n');
}
