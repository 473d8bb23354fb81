/** A cursor over a token list, with the lookahead, accept/expect helpers and error reporting parsers share. */
import { PySyntaxError, type Token } from './lexer.js';
import { Unsupported } from './index.js';

export const UNSUPPORTED_OPERATORS = new Set(['|', '&', '^', '<<', '>>', '@', ':=', '...', '<>']);

export class TokenCursor {
  pos = 0;
  constructor(readonly tokens: Token[]) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }
  next(): Token {
    const t = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return t;
  }
  /** Steps back over a token just taken with next() (a no-op at the end, where next() stays put). */
  back(t: Token): void {
    if (t.type !== 'end') this.pos--;
  }
  isOp(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'op' && t.value === value;
  }
  isKeyword(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'name' && t.value === value;
  }
  acceptOp(value: string): boolean {
    if (!this.isOp(value)) return false;
    this.next();
    return true;
  }
  acceptKeyword(value: string): boolean {
    if (!this.isKeyword(value)) return false;
    this.next();
    return true;
  }
  expectOp(value: string): Token {
    if (!this.isOp(value)) this.fail(`expected '${value}'`);
    return this.next();
  }
  expectKeyword(value: string): Token {
    if (!this.isKeyword(value)) this.fail(`expected '${value}'`);
    return this.next();
  }
  fail(message: string): never {
    const t = this.peek();
    if (t.type === 'op' && UNSUPPORTED_OPERATORS.has(t.value)) throw new Unsupported(`line ${t.line}: operator '${t.value}' is not supported`);
    if (t.type === 'name' && ['lambda', 'yield', 'await'].includes(t.value)) {
      throw new Unsupported(`line ${t.line}: '${t.value}' is not supported`);
    }
    const shown = t.type === 'end' ? 'end of input' : t.type === 'newline' ? 'end of line' : t.type === 'indent' ? 'indent' : t.type === 'dedent' ? 'dedent' : `'${t.value}'`;
    throw new PySyntaxError(`${message}, found ${shown}`, t.line);
  }
}
