/** Python strings as sequences of code points: length, whitespace, strip, isalpha. */

export function codePoints(s: string): string[] {
  return Array.from(s);
}

export function pyLen(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** str.isspace() for one character. */
export function isPySpace(ch: string): boolean {
  return /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(ch);
}

export function pyStrip(s: string): string {
  const cps = codePoints(s);
  let a = 0;
  let b = cps.length;
  while (a < b && isPySpace(cps[a])) a++;
  while (b > a && isPySpace(cps[b - 1])) b--;
  return cps.slice(a, b).join('');
}

export function pyIsAlpha(s: string): boolean {
  return s.length > 0 && /^\p{L}+$/u.test(s);
}
