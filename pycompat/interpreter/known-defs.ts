/**
 * The helper functions legs define (KNOWN_DEFS): the exact source each must have, its native
 * implementation, and how a program's `def` is matched against that source.
 */
import { DIGITAL_ROOT_FUNCTION } from './builtins.js';
import { tokenize, type Token } from './lexer.js';
import { PyException, Unsupported, absBig, pyInt, type PyFunction, type PyValue } from './index.js';
import { largestPrimeFactor, nextPrime, primeFactors, toRoman } from './number-theory.js';
import { pyUniversalNewlines } from '../text.js';

function native(name: string, impl: (n: bigint) => PyValue): PyFunction {
  return {
    type: 'function',
    name,
    call: (args, kwargs) => {
      if (kwargs.size) throw new Unsupported(`keyword arguments to ${name}() are not supported`);
      if (args.length !== 1) throw new PyException('TypeError', `${name}() takes 1 positional argument but ${args.length} were given`);
      return impl(absBig(pyInt(args[0])));
    },
  };
}

/** The helper functions legs define, each with the exact source it must have and its native twin. */
export const KNOWN_DEFS: Record<string, { source: string; fn: PyFunction }> = {
  next_prime: {
    source: `def next_prime(n):
    n = abs(int(n))
    if n < 2: return 2
    candidate = n + 1
    while True:
        if all(candidate % i != 0 for i in range(2, int(candidate**0.5)+1)):
            return candidate
        candidate += 1
`,
    fn: native('next_prime', nextPrime),
  },
  prime_factors: {
    source: `def prime_factors(n):
    n = abs(int(n))
    factors = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1: factors.append(n)
    return factors
`,
    fn: native('prime_factors', (n) => primeFactors(n)),
  },
  largest_prime_factor: {
    source: `def largest_prime_factor(n):
    n = abs(int(n))
    if n <= 1: return n
    d = 2
    while d * d <= n:
        while n % d == 0: n //= d
        d += 1
    return n
`,
    fn: native('largest_prime_factor', largestPrimeFactor),
  },
  to_roman: {
    source: `def to_roman(n):
    n = abs(int(n))
    vals = [(1000,'M'),(900,'CM'),(500,'D'),(400,'CD'),(100,'C'),
            (90,'XC'),(50,'L'),(40,'XL'),(10,'X'),(9,'IX'),(5,'V'),(4,'IV'),(1,'I')]
    r = ''
    for v, s in vals:
        while n >= v:
            r += s; n -= v
    return r
`,
    fn: native('to_roman', toRoman),
  },
  digital_root: {
    source: `def digital_root(n):
    n = abs(int(n))
    return n if n == 0 else ((n - 1) % 9) + 1
`,
    fn: DIGITAL_ROOT_FUNCTION,
  },
};

const canonicalTokens = new Map<string, string[]>();

export function tokenKeys(tokens: Token[]): string[] {
  return tokens.map((t) => `${t.type}:${t.value}`);
}

/** The token keys of a known def's source, computed once. */
export function canonical(name: string): string[] {
  let keys = canonicalTokens.get(name);
  if (!keys) {
    keys = tokenKeys(tokenize(KNOWN_DEFS[name].source).filter((t) => t.type !== 'end'));
    canonicalTokens.set(name, keys);
  }
  return keys;
}

/**
 * Known defs written out verbatim at the top of a program, each followed by a line at column 0:
 * they are bound without tokenizing them (the same outcome as the token comparison, only faster).
 */
export function verbatimDefs(code: string): { defs: string[]; rest: string; lines: number } {
  const defs: string[] = [];
  let rest = pyUniversalNewlines(code);
  let lines = 0;
  for (;;) {
    const name = /^def ([A-Za-z_]\w*)\(/.exec(rest)?.[1];
    const known = name !== undefined && Object.hasOwn(KNOWN_DEFS, name) ? KNOWN_DEFS[name] : undefined;
    if (!known || !rest.startsWith(known.source)) break;
    const next = rest.charAt(known.source.length);
    if (next === '' || /[\s#\\]/.test(next)) break; // the body might go on: take the careful path
    defs.push(name!);
    lines += known.source.split('\n').length - 1;
    rest = rest.slice(known.source.length);
  }
  return { defs, rest, lines };
}
