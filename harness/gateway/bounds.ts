import { nestsDeeperThan, TOOL_ARGS_MAX_CHARS, TOOL_ARGS_MAX_DEPTH } from '../../trial/tool-log.js';
import { HttpError } from './http.js';

/** A tool request's body, parsed; or, when its arguments are out of bounds, why, and the tool it named. */
export type BoundedToolRequest = { ok: true; body: unknown } | { ok: false; tool: string; reason: string };

/**
 * The value of a string member of the top-level object, found without parsing the rest (which may be too
 * deep to parse cheaply); undefined when there is none.
 */
export function topLevelString(text: string, key: string): string | undefined {
  let depth = 0;
  let lastString: string | undefined;
  let awaitingValueOf: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      let value: string;
      try {
        value = JSON.parse(text.slice(i, end + 1)) as string;
      } catch {
        return undefined;
      }
      if (depth === 1 && awaitingValueOf === key) return value;
      lastString = depth === 1 ? value : undefined;
      awaitingValueOf = undefined;
      i = end;
    } else if (c === ':') {
      awaitingValueOf = depth === 1 ? lastString : undefined;
    } else if (c === '{' || c === '[') {
      depth++;
      awaitingValueOf = undefined;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',') awaitingValueOf = lastString = undefined;
  }
  return undefined;
}

/**
 * Parses the body of /v1/tools/call or /v1/tools/report ({tool, args, ...}), refusing arguments nested
 * deeper than TOOL_ARGS_MAX_DEPTH or longer than TOOL_ARGS_MAX_CHARS as JSON. The depth is checked before
 * parsing: JSON.parse takes seconds on millions of levels, and every logged line must stay readable.
 */
export function parseToolRequest(text: string): BoundedToolRequest {
  // The body object is one level; only `args` nests below it.
  if (nestsDeeperThan(text, TOOL_ARGS_MAX_DEPTH + 1)) {
    return { ok: false, tool: topLevelString(text, 'tool') ?? '', reason: `the arguments nest deeper than ${TOOL_ARGS_MAX_DEPTH} levels` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
  const { tool, args } = (body && typeof body === 'object' ? body : {}) as { tool?: unknown; args?: unknown };
  const size = args === undefined ? 0 : JSON.stringify(args).length;
  if (size > TOOL_ARGS_MAX_CHARS) {
    return { ok: false, tool: typeof tool === 'string' ? tool : '', reason: `the arguments are ${size} characters of JSON, over the limit of ${TOOL_ARGS_MAX_CHARS}` };
  }
  return { ok: true, body };
}
