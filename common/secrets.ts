/**
 * The secrets the harness holds (the host's API keys, each trial's gateway token) and their masking: every
 * form in which a secret can come back (as is, JSON-escaped, URL-encoded, inside base64) is replaced by
 * SECRET_MARK in what the gateway returns to an agent and in what the harness writes or prints. Trial
 * tokens are masked by their shape (`aar-` and 48 hex digits), whichever trial's, so the cost does not grow
 * with the number of trials; keys are added by the code that reads them (the model and tool providers).
 */

/** What stands in for a secret. */
export const SECRET_MARK = '[secret removed by aar-harness]';
/** Shorter values are not taken as secrets: they would match ordinary text. */
export const SECRET_MIN_CHARS = 8;
/** A trial token (harness/gateway/trials.ts makes them): its prefix and its hex digits. */
export const TRIAL_TOKEN_PREFIX = 'aar-';
export const TRIAL_TOKEN_HEX_DIGITS = 48;
const TOKEN = new RegExp(`${TRIAL_TOKEN_PREFIX}[0-9a-f]{${TRIAL_TOKEN_HEX_DIGITS}}`, 'g');
const TOKEN_CHARS = TRIAL_TOKEN_PREFIX.length + TRIAL_TOKEN_HEX_DIGITS;
/** A proper prefix of a trial token: `a`, `aa`, `aar`, `aar-` and up to 47 hex digits. */
const TOKEN_START = new RegExp(`^a(?:a(?:r(?:-[0-9a-f]{0,${TRIAL_TOKEN_HEX_DIGITS - 1}})?)?)?$`);

/** The characters of base64 that depend on the secret's bytes alone, for each of the three alignments. */
function base64Inner(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const inner = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    out.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Every text in which a secret may come back. */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const url = encodeURIComponent(secret);
  const forms = [secret, json, json.replace(/\//g, '\\/'), url, url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()), url.replace(/%20/g, '+'), ...base64Inner(Buffer.from(secret))];
  return [...new Set(forms)].filter((f) => f.length >= SECRET_MIN_CHARS);
}

/** A secret's forms as bytes, each byte one character (latin1), to search in raw bytes with string methods. */
const asByteString = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

function replaceAll(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.replaceAll(form, SECRET_MARK);
  if (out.includes(TRIAL_TOKEN_PREFIX)) out = out.replace(TOKEN, SECRET_MARK);
  return out;
}

/** A set of secrets and the masking of text, bytes and streams of bytes by them. */
export class SecretMask {
  private readonly secrets = new Set<string>();
  private forms: string[] = [];
  private byteForms: string[] = [];
  private longest = TOKEN_CHARS;

  /** Adds secrets (empty, missing and too short values are ignored); returns this. */
  add(...secrets: (string | undefined | null)[]): this {
    for (const raw of secrets) {
      const secret = raw?.trim();
      if (!secret || secret.length < SECRET_MIN_CHARS || this.secrets.has(secret)) continue;
      this.secrets.add(secret);
      this.forms = [...new Set([...this.forms, ...secretForms(secret)])].sort((a, b) => b.length - a.length);
      this.byteForms = this.forms.map(asByteString);
      this.longest = Math.max(TOKEN_CHARS, ...this.byteForms.map((f) => f.length));
    }
    return this;
  }

  /** The text with every secret, in any of its forms, and every trial token replaced by SECRET_MARK. */
  text(text: string): string {
    return replaceAll(text, this.forms);
  }

  /** The same for bytes (a copy only when something was masked). */
  bytes(bytes: Uint8Array): Buffer {
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const text = buffer.toString('latin1');
    const masked = replaceAll(text, this.byteForms);
    return masked === text ? buffer : Buffer.from(masked, 'latin1');
  }

  /** Whether the text holds a secret or a trial token. */
  holds(text: string): boolean {
    return this.text(text) !== text;
  }

  /**
   * A masker for a stream of chunks: a secret split between chunks is masked too. Only an end of a chunk
   * that could be the start of a secret is held back until the next chunk (or `end`), so a stream's events
   * pass at once.
   */
  stream(): StreamMask {
    return new StreamMask(this.byteForms, this.longest);
  }
}

/** Masks a stream chunk by chunk (SecretMask.stream). */
export class StreamMask {
  private held = '';
  /** Whether anything was masked so far. */
  masked = false;
  /** The first characters of the forms and of a trial token: no other character can begin a secret. */
  private readonly firsts: Set<string>;

  constructor(
    private readonly forms: readonly string[],
    private readonly longest: number,
  ) {
    this.firsts = new Set([TRIAL_TOKEN_PREFIX[0]!, ...forms.map((f) => f[0]!)]);
  }

  /** The bytes that can be passed on now. */
  push(chunk: Uint8Array): Buffer {
    const raw = this.held + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    const text = replaceAll(raw, this.forms);
    if (text !== raw) this.masked = true;
    const keep = this.heldFrom(text);
    this.held = text.slice(keep);
    return Buffer.from(text.slice(0, keep), 'latin1');
  }

  /** What was held back, at the end of the stream. */
  end(): Buffer {
    const rest = Buffer.from(this.held, 'latin1');
    this.held = '';
    return rest;
  }

  /** Where the tail that could begin a secret starts (the text's length when none could). */
  private heldFrom(text: string): number {
    for (let start = Math.max(0, text.length - this.longest + 1); start < text.length; start++) {
      if (!this.firsts.has(text[start]!)) continue;
      const tail = text.slice(start);
      if (TOKEN_START.test(tail) || this.forms.some((f) => f.length > tail.length && f.startsWith(tail))) return start;
    }
    return text.length;
  }
}

/**
 * The secrets of this process: the host keys of the model and tool providers in use (added where they are
 * read) and, by their shape, the trial tokens. Everything the gateway returns to an agent and everything the
 * harness writes into a trial or job folder or prints goes through it.
 */
export const hostSecrets = new SecretMask();
