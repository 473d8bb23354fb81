import { errorResult, okResult } from './formats.js';
import type { ToolProvider } from './types.js';
import { requestJson } from './upstream.js';

const CODE_MODEL = 'code-model';
export const DEFAULT_CODE_MODEL = 'gpt-4o-mini';

export const CODE_SYSTEM_PROMPT = [
  'You write standalone Python 3 programs.',
  'Answer with the program only: no explanation before or after it, no Markdown.',
  'Use the standard library unless the task names another package; do not read input; print the results the task asks for.',
].join(' ');

interface ChatAnswer {
  choices?: { message?: { content?: string | { type?: string; text?: string }[] | null } }[];
}

/** The program in a model's answer: the first fenced block when there is one, else the whole text. */
export function stripCodeFences(answer: string): string {
  const fenced = /```[\w+-]*[^\n]*\n([\s\S]*?)(?:\n```|$)/.exec(answer);
  return (fenced ? fenced[1] : answer).trim() + '\n';
}

/**
 * python_generate_code through an OpenAI-compatible chat completions API. The model is the host's choice
 * (context `codeModel`, default gpt-4o-mini); a `model` argument from the agent is ignored.
 */
export const codeModelProvider: ToolProvider = {
  name: CODE_MODEL,
  async call(tool, args, ctx) {
    if (tool !== 'python_generate_code') return errorResult(`${CODE_MODEL} does not serve ${tool}`);
    if (!ctx.keys.codeModel) return errorResult('python_generate_code needs OPENAI_API_KEY on the host (or a code model configured)');
    const extra = typeof args.extra_instructions === 'string' && args.extra_instructions.trim() ? `\n\nAdditional instructions:\n${args.extra_instructions.trim()}` : '';
    const body = {
      model: ctx.codeModel ?? DEFAULT_CODE_MODEL,
      messages: [
        { role: 'system', content: CODE_SYSTEM_PROMPT },
        { role: 'user', content: `${String(args.description).trim()}${extra}` },
      ],
    };
    const headers = { Authorization: `Bearer ${ctx.keys.codeModel}` };
    const r = await requestJson<ChatAnswer>(ctx, CODE_MODEL, { method: 'POST', url: `${ctx.endpoints.codeModel}/chat/completions`, headers, json: body }, 'code model request');
    if (!r.ok) return r.result;
    const content = r.data.choices?.[0]?.message?.content;
    const text = Array.isArray(content) ? content.map((part) => part.text ?? '').join('') : (content ?? '');
    if (!text.trim()) return errorResult('the code model returned no program', JSON.stringify(r.data).slice(0, 500));
    return okResult(stripCodeFences(text));
  },
};
