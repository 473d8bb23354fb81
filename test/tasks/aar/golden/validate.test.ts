import { existsSync } from 'node:fs';
import { AAR_DATA_DIR } from '../../../helpers/data.js';
import { callInNode } from '../../../helpers/in-node.js';
import { loadLegs, parseLeg } from '../../../../tasks/aar/load.js';
import { KNOWN_DEFS } from '../../../../pycompat/interpreter/program.js';
import { CHECK_KINDS, formatValidationReport, validateLeg, validateLegs, type ValidatableLeg, type ValidationReport } from '../../../../tasks/aar/golden/validate.js';

const DATA = AAR_DATA_DIR;

function stop(index: number, fields: Record<string, unknown>): Record<string, unknown> {
  const { bridge, ...rest } = fields as { bridge?: Record<string, unknown> };
  return {
    index,
    stop_type: 'page',
    page_url: 'https://en.wikipedia.org/wiki/Example',
    extraction_target: 'a value',
    extraction_section: null,
    extracted_value: null,
    extracted_value_type: 'number',
    reasoning: '',
    reason_transform: null,
    reason_source_stop: null,
    reason_code: null,
    depends_on: index === 0 ? [] : [index - 1],
    ...rest,
    bridge: {
      bridge_type: 'link_follow',
      target_url: null,
      search_query: null,
      expected_result_url: null,
      tool_chain: [],
      expression: null,
      expression_code: null,
      referenced_stops: [],
      ...bridge,
    },
  };
}

const DATE_CODE =
  "from datetime import date\nd1 = date.fromisoformat('1875-01-01')\nd2 = date.fromisoformat('2026-03-15')\nresult = abs((d2 - d1).days)\nprint(result)";

/** A small consistent leg in the released format: page, python tool, reason, maps tool, compute. */
function legJson(): Record<string, any> {
  return {
    trail_id: 'trail_test',
    seed_url: 'https://en.wikipedia.org/wiki/Example',
    seed_title: 'Example',
    stops: [
      stop(0, { extracted_value: '1875', extracted_value_type: 'date' }),
      stop(1, {
        stop_type: 'tool',
        extracted_value: 55225,
        bridge: { bridge_type: 'tool_call', tool_chain: [{ tool_name: 'python_execute_code', arguments: { code: DATE_CODE }, expected_output: null, output_key: 'result' }] },
      }),
      stop(2, {
        stop_type: 'reason',
        extracted_value: 55229,
        reason_transform: 'next_prime',
        reason_source_stop: 1,
        reason_code: `${KNOWN_DEFS.next_prime.source}result = next_prime(55225)\nprint(result)`,
      }),
      stop(3, {
        stop_type: 'tool',
        extracted_value: 20.0,
        bridge: {
          bridge_type: 'tool_call',
          tool_chain: [
            { tool_name: 'maps_geocode', arguments: { address: 'Example' }, expected_output: null, output_key: 'coords' },
            { tool_name: 'maps_search_places', arguments: { query: 'hotels near Example' }, expected_output: null, output_key: 'poi_count' },
          ],
        },
      }),
      stop(4, {
        stop_type: 'compute',
        extracted_value: 4,
        depends_on: [0, 2, 3],
        bridge: {
          bridge_type: 'compute',
          expression: '(1875 + 55229 + 20) % 10',
          expression_code: 'result = (1875 + 55229 + 20) % 10\nprint(result)',
          referenced_stops: [0, 2, 3],
        },
      }),
    ],
    passcode: 4,
    difficulty: { level: 'easy', depth: 5, tool_stop_count: 2, reason_stop_count: 1, extraction_difficulty: 'easy', bridge_obscurity: 'low' },
    riddle: 'A test riddle.',
    metadata: { theme: 'test', difficulty: 'easy', sample_id: 'sample_999', pages_crawled: 1 },
    generated_at: '2026-01-01T00:00:00',
  };
}

function loaded(edit?: (leg: Record<string, any>) => void): ValidatableLeg {
  const json = legJson();
  edit?.(json);
  const file = '/data/aar-dag/easy/sample_999.json';
  const { leg, problems } = parseLeg(file, JSON.stringify(json));
  if (!leg) throw new Error(`fixture does not load: ${JSON.stringify(problems)}`);
  return { id: 'aar-dag/easy/sample_999', file, leg };
}

const FILE = '/data/aar-dag/easy/sample_999.json';
const ID = 'aar-dag/easy/sample_999';

describe('validateLeg', () => {
  it('finds nothing wrong with a consistent leg and counts its checks', () => {
    expect(validateLeg(loaded())).toEqual({
      legs: 1,
      checks: { reason_transform: 1, reason_code: 1, compute_expression: 1, compute_code: 1, passcode: 1, tool_code: 1 },
      mismatches: [],
      notes: [],
    });
  });

  it('wrong reason value: both the transform and the reason_code disagree with it', () => {
    const report = validateLeg(loaded((l) => (l.stops[2].extracted_value = 55231)));
    expect(report.mismatches).toEqual([
      { id: ID, file: FILE, stop: 2, path: '$.stops[2].extracted_value', kind: 'reason_code', expected: 55231, computed: '55229', message: 'reason_code prints 55229, but extracted_value is 55231' },
      { id: ID, file: FILE, stop: 2, path: '$.stops[2].extracted_value', kind: 'reason_transform', expected: 55231, computed: '55229', message: 'next_prime(55225) of stop 1 is 55229, but extracted_value is 55231' },
    ]);
  });

  it('wrong transform name: only the transform check fails', () => {
    const report = validateLeg(loaded((l) => (l.stops[2].reason_transform = 'digit_sum')));
    expect(report.mismatches).toEqual([
      {
        id: ID,
        file: FILE,
        stop: 2,
        path: '$.stops[2].extracted_value',
        kind: 'reason_transform',
        expected: 55229,
        computed: '19',
        message: 'digit_sum(55225) of stop 1 is 19, but extracted_value is 55229',
      },
    ]);
    expect(report.notes).toEqual([]);
  });

  it('changed source value (the stale inputs of the released data): a note saying the code started elsewhere, not a mismatch', () => {
    const report = validateLeg(
      loaded((l) => {
        l.stops[1].extracted_value = 55230;
        l.stops[1].bridge.tool_chain[0].arguments.code = DATE_CODE.replace('2026-03-15', '2026-03-20');
      }),
    );
    expect(report.mismatches).toEqual([]);
    expect(report.notes.map((m) => [m.kind, m.path, m.computed])).toEqual([['reason_transform', '$.stops[2].extracted_value', '55243']]);
    expect(report.notes[0].message).toBe(
      "stale source: next_prime(55230) of stop 1 is 55243, but reason_code computes extracted_value 55229 as next_prime(55225): stop 1's value changed after this stop was computed",
    );
  });

  it('wrong passcode: exactly one passcode mismatch', () => {
    const report = validateLeg(loaded((l) => (l.passcode = 7)));
    expect(report.mismatches).toEqual([
      { id: ID, file: FILE, stop: 4, path: '$.passcode', kind: 'passcode', expected: 7, computed: '4', message: 'passcode is 7, but the last compute stop ($.stops[4]) gives 4' },
    ]);
  });

  it('wrong expression: exactly one compute_expression mismatch', () => {
    const report = validateLeg(loaded((l) => (l.stops[4].bridge.expression = '(1875 + 55229 + 21) % 10')));
    expect(report.mismatches).toEqual([
      {
        id: ID,
        file: FILE,
        stop: 4,
        path: '$.stops[4].extracted_value',
        kind: 'compute_expression',
        expected: 4,
        computed: '5',
        message: 'expression `(1875 + 55229 + 21) % 10` is 5, but extracted_value is 4',
      },
    ]);
  });

  it('wrong expression_code: exactly one compute_code mismatch', () => {
    const report = validateLeg(loaded((l) => (l.stops[4].bridge.expression_code = 'result = (1875 + 55229 + 20) // 10\nprint(result)')));
    expect(report.mismatches.map((m) => [m.kind, m.path, m.computed, m.message])).toEqual([
      ['compute_code', '$.stops[4].extracted_value', '5712', 'expression_code prints 5712, but extracted_value is 4'],
    ]);
  });

  it('wrong tool program: the last python_execute_code step must print the stop value', () => {
    const report = validateLeg(loaded((l) => (l.stops[1].bridge.tool_chain[0].arguments.code = DATE_CODE.replace('1875', '1876'))));
    expect(report.mismatches.map((m) => [m.kind, m.path, m.computed, m.message])).toEqual([
      ['tool_code', '$.stops[1].extracted_value', '54860', 'tool_chain[0] python_execute_code prints 54860, but extracted_value is 55225'],
    ]);
  });

  it('a python step that is not the last of its chain only has to run', () => {
    const withSteps = (code: string) =>
      loaded((l) => {
        l.stops[3].bridge.tool_chain.unshift({ tool_name: 'python_execute_code', arguments: { code }, expected_output: null, output_key: 'x' });
      });
    const fine = validateLeg(withSteps('print(1)'));
    expect(fine.checks.tool_code).toBe(2);
    expect(fine.mismatches).toEqual([]);
    const broken = validateLeg(withSteps('print(1 / 0)'));
    expect(broken.mismatches.map((m) => [m.kind, m.path, m.message])).toEqual([
      ['tool_code', '$.stops[3].bridge.tool_chain[0].arguments.code', 'tool_chain[0] python_execute_code `print(1 / 0)` cannot run: ZeroDivisionError: division by zero'],
    ]);
  });

  it('unknown transform: a mismatch that says so', () => {
    const report = validateLeg(loaded((l) => (l.stops[2].reason_transform = 'cube_root')));
    expect(report.mismatches).toEqual([
      {
        id: ID,
        file: FILE,
        stop: 2,
        path: '$.stops[2].reason_transform',
        kind: 'reason_transform',
        expected: 55229,
        computed: null,
        message: "cube_root(55225) of stop 1 cannot be computed: unknown reason transform 'cube_root'",
      },
    ]);
  });

  it('unsupported program: a mismatch that says so', () => {
    const report = validateLeg(loaded((l) => (l.stops[2].reason_code = 'for i in range(3):\n    print(i)')));
    expect(report.mismatches).toEqual([
      {
        id: ID,
        file: FILE,
        stop: 2,
        path: '$.stops[2].reason_code',
        kind: 'reason_code',
        expected: 55229,
        computed: null,
        message: "reason_code `for i in range(3): \u23ce print(i)` cannot run: unsupported: line 1: 'for' statements are not supported",
      },
    ]);
  });

  it('a def with an unfamiliar body is unsupported, not interpreted', () => {
    const report = validateLeg(loaded((l) => (l.stops[2].reason_code = l.stops[2].reason_code.replace('if n < 2: return 2', 'if n < 3: return 2'))));
    expect(report.mismatches.map((m) => [m.kind, m.path])).toEqual([['reason_code', '$.stops[2].reason_code']]);
    expect(report.mismatches[0].message).toContain('def next_prime() differs from the known next_prime');
  });

  it('compares numbers numerically and everything else by Python str()', () => {
    // 55229.0 is the same number as 55229; the string '55229' has the same str() as the int.
    expect(validateLeg(loaded((l) => (l.stops[2].extracted_value = 55229.0))).mismatches).toEqual([]);
    expect(validateLeg(loaded((l) => (l.stops[2].extracted_value = '55229'))).mismatches).toEqual([]);
    expect(validateLeg(loaded((l) => (l.stops[2].extracted_value = '55229.0'))).mismatches.map((m) => m.kind)).toEqual(['reason_code', 'reason_transform']);
  });

  it('a leg without a compute stop fails the passcode check', () => {
    const leg = loaded((l) => {
      l.stops.pop();
    });
    expect(validateLeg(leg).mismatches).toEqual([
      { id: ID, file: FILE, stop: null, path: '$.stops', kind: 'passcode', expected: 4, computed: null, message: 'the leg has no compute stop to give the passcode' },
    ]);
  });
});

describe('validateLegs and formatValidationReport', () => {
  it('adds up legs and checks, and prints one line per mismatch', () => {
    const report = validateLegs([loaded(), loaded((l) => (l.passcode = 7)), loaded((l) => (l.stops[4].bridge.expression = '1 +'))]);
    expect(report.legs).toBe(3);
    expect(report.checks).toEqual({ reason_transform: 3, reason_code: 3, compute_expression: 3, compute_code: 3, passcode: 3, tool_code: 3 });
    expect(formatValidationReport(report)).toBe(
      [
        'validated 3 legs: 18 checks (3 reason_transform, 3 reason_code, 3 compute_expression, 3 compute_code, 3 passcode, 3 tool_code); 2 mismatches',
        `${FILE}: $.passcode: [passcode] leg ${ID}, stop 4: passcode is 7, but the last compute stop ($.stops[4]) gives 4`,
        `${FILE}: $.stops[4].bridge.expression: [compute_expression] leg ${ID}, stop 4: expression \`1 +\` cannot be evaluated: SyntaxError: line 1: expected an expression, found end of line`,
      ].join('\n'),
    );
    expect(formatValidationReport(validateLegs([]))).toBe(
      'validated 0 legs: 0 checks (0 reason_transform, 0 reason_code, 0 compute_expression, 0 compute_code, 0 passcode, 0 tool_code); 0 mismatches',
    );
  });
});

/**
 * In 28 reason stops of the released data, the source is a live "Count the number of ... near ..." tool
 * stop whose extracted_value differs from the input its reason_code (and extracted_value) were computed
 * from: the count was refreshed after the reason stop was made. The reason stops' own traces are
 * consistent, so these are notes, not mismatches. Every other check passes.
 */
const KNOWN_STALE_REASON_INPUTS: Array<[string, string, number, string]> = [
  ['aar-dag/extreme/sample_082', '$.stops[27].extracted_value', 7, '2'],
  ['aar-dag/extreme/sample_093', '$.stops[22].extracted_value', 2, '3'],
  ['aar-dag/extreme/sample_095', '$.stops[21].extracted_value', 4, '6'],
  ['aar-dag/extreme/sample_146', '$.stops[21].extracted_value', 2, '4'],
  ['aar-dag/extreme/sample_159', '$.stops[22].extracted_value', 5, '2'],
  ['aar-dag/extreme/sample_221', '$.stops[37].extracted_value', 2, '3'],
  ['aar-dag/hard/sample_117', '$.stops[25].extracted_value', 5, '0'],
  ['aar-dag/hard/sample_154', '$.stops[24].extracted_value', 11, '5'],
  ['aar-dag/hard/sample_159', '$.stops[24].extracted_value', 7, '5'],
  ['aar-dag/hard/sample_222', '$.stops[18].extracted_value', 3, '1'],
  ['aar-dag/hard/sample_226', '$.stops[17].extracted_value', 91, '3'],
  ['aar-dag/medium/sample_183', '$.stops[11].extracted_value', 11, '3'],
  ['aar-linear/easy/sample_158', '$.stops[2].extracted_value', 2, '3'],
  ['aar-linear/easy/sample_185', '$.stops[2].extracted_value', 2, '1'],
  ['aar-linear/extreme/sample_082', '$.stops[21].extracted_value', 7, '2'],
  ['aar-linear/extreme/sample_093', '$.stops[13].extracted_value', 2, '3'],
  ['aar-linear/extreme/sample_095', '$.stops[15].extracted_value', 4, '6'],
  ['aar-linear/extreme/sample_146', '$.stops[12].extracted_value', 2, '4'],
  ['aar-linear/extreme/sample_159', '$.stops[19].extracted_value', 5, '2'],
  ['aar-linear/extreme/sample_221', '$.stops[22].extracted_value', 2, '3'],
  ['aar-linear/hard/sample_117', '$.stops[16].extracted_value', 5, '0'],
  ['aar-linear/hard/sample_154', '$.stops[15].extracted_value', 11, '5'],
  ['aar-linear/hard/sample_159', '$.stops[18].extracted_value', 7, '5'],
  ['aar-linear/hard/sample_222', '$.stops[15].extracted_value', 3, '1'],
  ['aar-linear/hard/sample_226', '$.stops[14].extracted_value', 91, '3'],
  ['aar-linear/medium/sample_052', '$.stops[4].extracted_value', 8, '6'],
  ['aar-linear/medium/sample_128', '$.stops[7].extracted_value', 2, '7'],
  ['aar-linear/medium/sample_183', '$.stops[8].extracted_value', 11, '3'],
];

const describeData = existsSync(DATA) ? describe : describe.skip;
if (!existsSync(DATA)) console.warn(`skipping the real-data validation: ${DATA} is absent`);

describeData(`the released legs in ${DATA}`, () => {
  it('validate with 0 mismatches and the 28 known stale reason inputs as notes', async () => {
    const { legs, problems } = await loadLegs(DATA);
    expect(problems).toEqual([]);
    // 1,400 legs: run outside Jest's vm sandbox (see callInNode).
    const report = await callInNode<ValidationReport>(new URL('../../../../tasks/aar/golden/validate.js', import.meta.url), 'validateLegs', legs);

    expect(report.legs).toBe(1400);
    expect(report.checks).toEqual({ reason_transform: 4556, reason_code: 4556, compute_expression: 1400, compute_code: 1400, passcode: 1400, tool_code: 2311 });
    expect(Object.keys(report.checks)).toEqual([...CHECK_KINDS]);
    expect(report.mismatches).toEqual([]);
    const found = report.notes.map((m) => [m.id, m.path, m.expected, m.computed]);
    expect(found).toEqual(KNOWN_STALE_REASON_INPUTS);
    for (const m of report.notes) {
      expect(m.kind).toBe('reason_transform');
      expect(m.message).toMatch(/^stale source: .* but reason_code computes extracted_value .* as \w+\(.+\): stop \d+'s value changed/);
      expect(m.file).toBe(`${DATA}/${m.id}.json`);
    }
  });
});
