/** A tokenizer for the Python subset, with Python's NEWLINE / INDENT / DEDENT structure. */
import { Unsupported } from './index.js';
import { pyUniversalNewlines } from '../text.js';

export type TokenType = 'name' | 'int' | 'float' | 'string' | 'op' | 'newline' | 'indent' | 'dedent' | 'end';

export interface Token {
  type: TokenType;
  /** Source text for names and operators; the decoded value for strings; digits for numbers. */
  value: string;
  line: number;
}

/** A syntax error in the program: the real interpreter would refuse it too. */
export class PySyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'PySyntaxError';
  }
}

const OPERATORS3 = new Set(['**=', '//=', '>>=', '<<=', '...']);
const OPERATORS2 = new Set(['**', '//', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@=', '->', ':=', '<<', '>>', '<>']);
const OPERATORS1 = new Set('+-*/%<>=()[]{},:.;@&|^~');

const DIGITS = String.raw`\d(?:_?\d)*`;
const NUMBER = new RegExp(
  String.raw`(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|` +
    String.raw`(?:(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.?)(?:[eE][+-]?${DIGITS})?)[jJ]?`,
  'y',
);
const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const STRING_START = /([rRuUbBfF]{0,2})('''|"""|'|")/y;

function matchAt(re: RegExp, src: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(src);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\n': '',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

function decodeEscapes(body: string, line: number): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) throw new PySyntaxError('unterminated string literal', line);
    if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
      i++;
    } else if (/[0-7]/.test(next)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      out += String.fromCodePoint(parseInt(m, 8));
      i += m.length;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const n = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) throw new PySyntaxError(`truncated \\${next} escape`, line);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) throw new PySyntaxError('illegal Unicode character', line);
      out += String.fromCodePoint(cp);
      i += 1 + n;
    } else if (next === 'N') {
      throw new Unsupported(`line ${line}: \\N{...} escapes are not supported`);
    } else {
      out += '\\'; // unknown escapes keep the backslash
    }
  }
  return out;
}

/** Tokenizes a whole program (or one expression); `firstLine` numbers the first line. */
export function tokenize(source: string, firstLine = 1): Token[] {
  const tokens: Token[] = [];
  const indents = [0];
  let depth = 0; // open brackets: newlines and indentation inside them do not count
  let line = firstLine;
  let i = 0;
  let atLineStart = true;
  const src = pyUniversalNewlines(source);

  while (i < src.length) {
    if (atLineStart && depth === 0) {
      // Measure indentation; skip blank and comment-only lines entirely.
      let col = 0;
      let j = i;
      while (j < src.length && (src[j] === ' ' || src[j] === '\t' || src[j] === '\f')) {
        col = src[j] === '\t' ? (Math.floor(col / 8) + 1) * 8 : src[j] === '\f' ? 0 : col + 1;
        j++;
      }
      if (j >= src.length) {
        i = j;
        break;
      }
      if (src[j] === '\n' || src[j] === '#' || (src[j] === '\\' && src[j + 1] === '\n')) {
        if (src[j] === '#') while (j < src.length && src[j] !== '\n') j++;
        if (src[j] === '\\') j++;
        i = j + 1;
        line++;
        continue;
      }
      if (col > indents[indents.length - 1]) {
        indents.push(col);
        tokens.push({ type: 'indent', value: '', line });
      } else {
        while (col < indents[indents.length - 1]) {
          indents.pop();
          tokens.push({ type: 'dedent', value: '', line });
        }
        if (col !== indents[indents.length - 1]) throw new PySyntaxError('unindent does not match any outer indentation level', line);
      }
      i = j;
      atLineStart = false;
    }

    const ch = src[i];
    if (ch === ' ' || ch === '\t' || ch === '\f') {
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (ch === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    if (ch === '\n') {
      if (depth === 0) {
        tokens.push({ type: 'newline', value: '', line });
        atLineStart = true;
      }
      i++;
      line++;
      continue;
    }

    const str = ch === '"' || ch === "'" || 'rRuUbBfF'.includes(ch) ? matchAt(STRING_START, src, i) : null;
    if (str && (str[1] === '' || /^[rRuUbBfF]{1,2}$/.test(str[1]))) {
      const prefix = str[1].toLowerCase();
      if (prefix.includes('b') || prefix.includes('f') || (prefix.length === 2 && !/^(?:rb|br|rf|fr)$/.test(prefix))) {
        if (prefix.includes('f')) throw new Unsupported(`line ${line}: f-strings are not supported`);
        if (prefix.includes('b')) throw new Unsupported(`line ${line}: bytes literals are not supported`);
        throw new PySyntaxError('invalid string prefix', line);
      }
      const quote = str[2];
      let j = i + str[0].length;
      let body = '';
      const startLine = line;
      // Fast path: a one-line literal without backslashes.
      const close = src.indexOf(quote, j);
      if (close >= 0) {
        const simple = src.slice(j, close);
        if (!simple.includes('\\') && !simple.includes('\n')) {
          tokens.push({ type: 'string', value: simple, line });
          i = close + quote.length;
          continue;
        }
      }
      for (;;) {
        if (j >= src.length) throw new PySyntaxError('unterminated string literal', startLine);
        if (src.startsWith(quote, j)) break;
        if (src[j] === '\n') {
          if (quote.length === 1) throw new PySyntaxError('unterminated string literal', startLine);
          line++;
        }
        if (src[j] === '\\' && j + 1 < src.length) {
          if (src[j + 1] === '\n') line++;
          body += src[j] + src[j + 1];
          j += 2;
          continue;
        }
        body += src[j];
        j++;
      }
      const raw = prefix.includes('r');
      tokens.push({ type: 'string', value: raw ? body : decodeEscapes(body, startLine), line: startLine });
      i = j + quote.length;
      continue;
    }

    if ((ch >= '0' && ch <= '9') || (ch === '.' && src[i + 1] >= '0' && src[i + 1] <= '9')) {
      const m = matchAt(NUMBER, src, i);
      if (!m) throw new PySyntaxError('invalid number', line);
      const text = m[0];
      if (/[jJ]$/.test(text)) throw new Unsupported(`line ${line}: complex literals are not supported`);
      const after = src[i + text.length];
      if (after !== undefined && /[\p{L}\p{N}_]/u.test(after)) throw new PySyntaxError(`invalid literal '${text}${after}'`, line);
      const isFloat = !/^0[xXoObB]/.test(text) && /[.eE]/.test(text);
      if (!isFloat && /^0\d/.test(text.replace(/_/g, '')) && /[1-9]/.test(text)) {
        throw new PySyntaxError('leading zeros in decimal integer literals are not permitted', line);
      }
      tokens.push({ type: isFloat ? 'float' : 'int', value: text, line });
      i += text.length;
      continue;
    }

    const c = src.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95) {
      let j = i + 1;
      for (; j < src.length; j++) {
        const d = src.charCodeAt(j);
        if (!((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57) || d === 95)) break;
      }
      if (j >= src.length || src.charCodeAt(j) < 128) {
        tokens.push({ type: 'name', value: src.slice(i, j), line });
        i = j;
        continue;
      }
    }
    const name = c >= 65 ? matchAt(NAME, src, i) : null;
    if (name) {
      tokens.push({ type: 'name', value: name[0], line });
      i += name[0].length;
      continue;
    }

    const op = OPERATORS3.has(src.slice(i, i + 3))
      ? src.slice(i, i + 3)
      : OPERATORS2.has(src.slice(i, i + 2))
        ? src.slice(i, i + 2)
        : OPERATORS1.has(ch)
          ? ch
          : undefined;
    if (op) {
      if ('([{'.includes(op)) depth++;
      else if (')]}'.includes(op)) {
        if (depth === 0) throw new PySyntaxError(`unmatched '${op}'`, line);
        depth--;
      }
      tokens.push({ type: 'op', value: op, line });
      i += op.length;
      continue;
    }
    throw new PySyntaxError(`invalid character '${ch}'`, line);
  }

  if (depth > 0) throw new PySyntaxError('unexpected end of input inside brackets', line);
  const last = tokens[tokens.length - 1];
  if (last && last.type !== 'newline' && last.type !== 'dedent') tokens.push({ type: 'newline', value: '', line });
  while (indents.length > 1) {
    indents.pop();
    tokens.push({ type: 'dedent', value: '', line });
  }
  tokens.push({ type: 'end', value: '', line });
  return tokens;
}
