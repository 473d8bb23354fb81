/** Attributes and methods of values: str methods, list.append, date fields, module and class members. */
import { arity, fn } from './runtime.js';
import { PyException, Unsupported, isPyObject, fromOrdinal, pyIsAlpha, pyLen, pyStr, pyStrip, typeName, type PyFunction, type PyValue } from './index.js';

function method(name: string, call: PyFunction['call']): PyFunction {
  return fn(name, call);
}

function strCount(s: string, sub: string): bigint {
  if (sub === '') return BigInt(pyLen(s) + 1);
  let n = 0n;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

export function getAttribute(v: PyValue, attr: string): PyValue {
  if (typeof v === 'string') {
    switch (attr) {
      case 'upper':
        return method('str.upper', (a, k) => (arity('upper', a, k, 0), v.toUpperCase()));
      case 'lower':
        return method('str.lower', (a, k) => (arity('lower', a, k, 0), v.toLowerCase()));
      case 'isalpha':
        return method('str.isalpha', (a, k) => (arity('isalpha', a, k, 0), pyIsAlpha(v)));
      case 'strip':
        return method('str.strip', (a, k) => {
          arity('strip', a, k, 0);
          return pyStrip(v);
        });
      case 'count':
        return method('str.count', (a, k) => {
          arity('count', a, k, 1);
          if (typeof a[0] !== 'string') throw new PyException('TypeError', `must be str, not ${typeName(a[0])}`);
          return strCount(v, a[0]);
        });
    }
  } else if (Array.isArray(v)) {
    if (attr === 'append') {
      return method('list.append', (a, k) => {
        arity('append', a, k, 1);
        v.push(a[0]);
        return null;
      });
    }
  } else if (isPyObject(v)) {
    switch (v.type) {
      case 'module':
      case 'function': {
        const found = v.attrs?.get(attr);
        if (found !== undefined) return found;
        if (v.type === 'module') throw new Unsupported(`${v.name}.${attr} is not supported`);
        break;
      }
      case 'date': {
        const { year, month, day } = fromOrdinal(v.ordinal);
        switch (attr) {
          case 'year':
            return BigInt(year);
          case 'month':
            return BigInt(month);
          case 'day':
            return BigInt(day);
          case 'isoweekday':
            return method('date.isoweekday', (a, k) => (arity('isoweekday', a, k, 0), BigInt(((v.ordinal + 6) % 7) + 1)));
          case 'weekday':
            return method('date.weekday', (a, k) => (arity('weekday', a, k, 0), BigInt((v.ordinal + 6) % 7)));
          case 'toordinal':
            return method('date.toordinal', (a, k) => (arity('toordinal', a, k, 0), BigInt(v.ordinal)));
          case 'isoformat':
            return method('date.isoformat', (a, k) => (arity('isoformat', a, k, 0), pyStr(v)));
        }
        break;
      }
      case 'timedelta':
        if (attr === 'days') return v.days;
        if (attr === 'seconds' || attr === 'microseconds') return 0n;
        break;
    }
  }
  throw new Unsupported(`attribute '${attr}' of ${typeName(v)} is not supported`);
}
