/**
 * Tool output truncation. The AAR paper's protocol cuts tool outputs at 8,000 characters (the default
 * here); the reference Harbor adapter cut Wikipedia pages at 100,000. Characters are Unicode code points.
 */
export const PAPER_OUTPUT_LIMIT = 8000;
export const REFERENCE_PAGE_LIMIT = 100_000;

export interface Truncated {
  text: string;
  truncated: boolean;
  /** Length of the untruncated output, in code points. */
  fullLength: number;
}

export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) n++;
    else {
      const d = text.charCodeAt(i + 1);
      n++;
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
}

/** The first `count` code points. */
export function codePointPrefix(text: string, count: number): string {
  if (text.length <= count) return text;
  let i = 0;
  for (let n = 0; n < count && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return text.slice(0, i);
}

export function truncateOutput(text: string, limit: number): Truncated {
  if (text.length <= limit) return { text, truncated: false, fullLength: codePointLength(text) };
  const fullLength = codePointLength(text);
  if (fullLength <= limit) return { text, truncated: false, fullLength };
  const shown = codePointPrefix(text, limit);
  const note = `\n\n[output truncated: showing the first ${limit.toLocaleString('en-US')} of ${fullLength.toLocaleString('en-US')} characters]`;
  return { text: shown + note, truncated: true, fullLength };
}
