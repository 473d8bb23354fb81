/**
 * Python values and their semantics, for the small Python subset that AAR legs use: one import for
 * the value model (../values.ts), strings (../text.ts), repr/str/truth (../repr.ts), conversions
 * (convert.ts), comparisons (compare.ts), arithmetic (arith.ts), dates (../date.ts) and JSON values (json.ts).
 *
 * Representation: int -> bigint, float -> number, bool -> boolean, str -> string (indexed by code point),
 * None -> null; everything else is a tagged object. Semantics follow CPython 3.11.
 */
export {
  MAX_SAFE,
  PyException,
  Unsupported,
  absBig,
  asInt,
  bitLength,
  isNumeric,
  rangeLength,
  toFloat,
  typeName,
  isPyObject,
  type PyObject,
  type CallContext,
  type PyDate,
  type PyFunction,
  type PyIterator,
  type PyModule,
  type PyRange,
  type PySet,
  type PyTimedelta,
  type PyTuple,
  type PyValue,
} from '../values.js';
export { codePoints, pyIsAlpha, pyLen, pyStrip } from '../text.js';
export {
  dateFromIso,
  floatToInt,
  parseFloatLiteral,
  parseIntLiteral,
  pyFloat,
  pyInt,
} from './convert.js';
export { pyEquals, pyOrder } from './compare.js';
export { pyRepr, pyStr, pyTruthy } from '../repr.js';
export {
  binaryOp,
  floatPow,
  floorDiv,
  floorMod,
  intTrueDivide,
  pyAbs,
  roundRatio,
  unaryOp,
  type BinaryOperator,
} from './arith.js';
export { MAX_ORDINAL, daysInMonth, fromOrdinal, isLeapYear, makeDate, toOrdinal } from '../date.js';
export { fromJson, jsonPyStr, type Json } from './json.js';
