/**
 * Where JSON text first goes wrong, for error messages: JSON.parse in Node 20 does not always say.
 * A strict RFC 8259 scan; it only runs after JSON.parse has already refused the text.
 */
export function locateJsonError(text: string): { offset: number; message: string } | null {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: i, message };
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const expect = (token: string): void => {
    if (text.startsWith(token, i)) i += token.length;
    else fail(`expected ${token}`);
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in string');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail('bad escape');
      } else i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name in double quotes');
        string();
        ws();
        expect(':');
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail("expected ',' or '}'");
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail("expected ',' or ']'");
      }
    } else if (c === '"') string();
    else if (c === 't') expect('true');
    else if (c === 'f') expect('false');
    else if (c === 'n') expect('null');
    else {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 400));
      if (!m) fail(i >= text.length ? 'unexpected end of text' : 'expected a value');
      i += m![0].length;
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail('unexpected text after the JSON value');
    return null;
  } catch (e) {
    if (e && typeof e === 'object' && 'offset' in e) return e as { offset: number; message: string };
    throw e;
  }
}
