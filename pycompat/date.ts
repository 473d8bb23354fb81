/** datetime.date arithmetic: the proleptic Gregorian calendar, ordinals, and date() with range checks. */
import { PyException, type PyDate } from './values.js';

const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

export function isLeapYear(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** Proleptic Gregorian ordinal, as date.toordinal(). */
export function toOrdinal(year: number, month: number, day: number): number {
  const y = year - 1;
  return y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + DAYS_BEFORE_MONTH[month] + (month > 2 && isLeapYear(year) ? 1 : 0) + day;
}

export const MAX_ORDINAL = 3652059; // date(9999, 12, 31)

export function fromOrdinal(ordinal: number): { year: number; month: number; day: number } {
  let year = Math.floor((ordinal - 1) / 365.2425) + 1;
  while (toOrdinal(year, 1, 1) > ordinal) year--;
  while (toOrdinal(year + 1, 1, 1) <= ordinal) year++;
  let month = 12;
  while (toOrdinal(year, month, 1) > ordinal) month--;
  return { year, month, day: ordinal - toOrdinal(year, month, 1) + 1 };
}

/** The date with this ordinal; OverflowError outside date.min..date.max. */
export function dateFromOrdinalChecked(ordinal: bigint): PyDate {
  if (ordinal < 1n || ordinal > BigInt(MAX_ORDINAL)) throw new PyException('OverflowError', 'date value out of range');
  return { type: 'date', ordinal: Number(ordinal) };
}

/** date(year, month, day) with CPython's range checks. */
export function makeDate(year: bigint, month: bigint, day: bigint): PyDate {
  if (year < 1n || year > 9999n) throw new PyException('ValueError', `year ${year} is out of range`);
  if (month < 1n || month > 12n) throw new PyException('ValueError', 'month must be in 1..12');
  const y = Number(year);
  const m = Number(month);
  if (day < 1n || day > BigInt(daysInMonth(y, m))) throw new PyException('ValueError', 'day is out of range for month');
  return { type: 'date', ordinal: toOrdinal(y, m, Number(day)) };
}
