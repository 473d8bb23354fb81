/**
 * Python's text and number rules, ported so that the verifier writes exactly what the reference
 * verifier (a Python 3.11 program, UTF-8 locale) writes. Each function names the Python expression it
 * reproduces. Unicode properties come from CPython's own tables (Unicode 14.0.0, see unicode-tables.ts),
 * not from Node's ICU, which is a newer Unicode version.
 *
 * Value model (what `parsePyJson` returns and what `pyStr`/`pyRepr`/`pyJsonDumps` accept):
 * - Python str   -> JS string
 * - Python int   -> JS number when it is a safe integer, else bigint
 * - Python float -> JS number when it is not integral; `PyFloat` when integral (20.0, -0.0, 1e300, inf, nan),
 *                   so that str() gives "20.0" and not "20". A plain JS number that is integral is an int.
 * - True/False   -> boolean; None -> null
 * - list         -> array; dict -> Map<string, PyValue> (keeps Python's insertion order), plain objects accepted too
 */

export { PyFloat, type PyValue, pyRepr, pyStr, pyStrRepr, pyTruthy, pyIntStr, isPyFloat } from './values.js';
export {
  pyStrip,
  pyLstrip,
  pyRstrip,
  pyLower,
  pySplitlines,
  isPyLineBreak,
  pyMatchesSingleDigit,
  pyReadText,
  PyUnicodeDecodeError,
} from './text.js';
export { pyFloat, pyFloatRepr, pyIntOfFloat, pyFormatFixed, pyRound, decomposeDouble, shortestDigits } from './floats.js';
export {
  parsePyJson,
  parsePyJsonLine,
  PyJSONDecodeError,
  PyValueError,
  PyRecursionError,
  PY_JSON_DEFAULT_MAX_DEPTH,
} from './json-parse.js';
export { pyJsonDumps, pyJsonString } from './json-dumps.js';
export { isPyPrintable, isPySpace, pyDecimalValue, pyLowerCodePoint, isPyCased, isPyCaseIgnorable } from './unicode.js';
export { PY_UNICODE_VERSION } from './unicode-tables.js';
