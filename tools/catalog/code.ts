import { z } from 'zod';
import { text } from './args.js';
import { errorResult, okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { defineTool } from './define.js';

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

/**
 * The program in a model's answer, taken as the code tool of the golden values took it: an answer that starts
 * with a fence loses its first line and, when it is a fence too, its last; any other answer is kept whole.
 */
export function stripCodeFences(answer: string): string {
  const text = answer.trim();
  if (!text.startsWith('```')) return text;
  const lines = text.split(/\r\n|\r|\n/).slice(1);
  if (lines.length && lines[lines.length - 1].startsWith('```')) lines.pop();
  return lines.join('\n');
}

/**
 * python_generate_code through an OpenAI-compatible chat completions API. The model is the host's choice
 * (context `codeModel`, default gpt-4o-mini); a `model` argument from the agent is ignored.
 */
async function generateCode(args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
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
}

export const pythonExecuteCode = defineTool({
  name: 'python_execute_code',
  group: 'code',
  summary: 'Run a Python 3 program inside your container and return what it prints.',
  returns: 'its stdout (and stderr, and the exit code when not 0)',
  args: () => z.object({
    code: text('code').describe('the program; print what you need'),
    timeout_seconds: z.coerce.number().min(0.1).max(300).optional().describe('time limit, 0.1-300 (default 30)'),
  }),
  example: { code: 'print(abs(2007 - 1945) % 10)' },
  runsIn: 'container',
});

export const pythonGenerateCode = defineTool({
  name: 'python_generate_code',
  group: 'code',
  summary: 'Ask a code model to write a standalone Python 3 program for a task (run it with python_execute_code).',
  returns: 'the program text, without Markdown fences',
  args: () => z.object({
    description: text('description').describe('what the program must do'),
    extra_instructions: z.string().optional().describe('constraints or notes'),
    model: z.string().optional().meta({ undocumented: true, description: 'accepted and ignored: the host chooses the code model' }),
  }),
  example: { description: 'print the number of days between 1945-10-26 and 2007-01-01' },
  runsIn: 'gateway',
  provider: CODE_MODEL,
  run: generateCode,
});
