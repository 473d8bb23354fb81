/**
 * Python's text and number rules, ported so that the verifier writes exactly what the reference
 * verifier (a Python 3.11 program, UTF-8 locale) writes. Each function names the Python expression it
 * reproduces. Unicode properties come from CPython's own tables (Unicode 14.0.0, see unicode-tables.ts),
 * not from Node's ICU, which is a newer Unicode version.
 *
 * The value model: see values.ts.
 */

export { type PyValue } from './values.js';
export { pyRepr, pyStr, pyStrRepr, pyTruthy } from './repr.js';
export {
  pyStrip,
  pyLstrip,
  pyRstrip,
  pyLower,
  pySplitlines,
  isPyLineBreak,
  pyMatchesSingleDigit,
  pyReadText,
  pyUniversalNewlines,
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
export { fromNativeJson, fromNativeJsonIfExact, dependsOnPythonTypes } from './json-native.js';
export { pyJsonDumps, pyJsonString } from './json-dumps.js';
export { isPyPrintable, isPySpace, pyDecimalValue, pyLowerCodePoint, isPyCased, isPyCaseIgnorable } from './unicode.js';
export { PY_UNICODE_VERSION } from './unicode-tables.js';
export { isPyDict, pyGet, pyKeys, pyList, pyNumber, pyString, type PyDict } from './dict.js';
