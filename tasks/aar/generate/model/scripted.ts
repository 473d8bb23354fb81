import type { ClueView } from '../verbalize/clues.js';
import { ruleImpliedCode, ruleReadSteps } from '../verbalize/reader.js';
import { templateRiddle } from '../verbalize/template.js';
import { ruleProse, type ProseView } from '../steps/extract.js';
import { ruleRoute, type PlanView } from '../steps/plan.js';
import { readDataBlock } from './prompts.js';

/**
 * The replies of the scripted model to the pipeline's prompts (served by model/rule-server.ts behind the
 * real gateway): each prompt's data block answered by the rule form of its step. It makes the offline example run every model path (requests, parsing, gates, token
 * counts) with answers that pass; usage is reported as a quarter of the characters in and out.
 */

type Body = Record<string, unknown>;

/** The text of a request's messages (Chat Completions or Anthropic Messages), last message last. */
function promptOf(body: Body): string {
  const messages = (body.messages as { content?: unknown }[] | undefined) ?? [];
  return messages.map((m) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((c: { text?: string }) => c.text ?? '').join('') : '')).join('\n');
}

export function scriptedReply(prompt: string): string {
  const block = readDataBlock(prompt);
  if (!block) return 'I was not given a data block to answer from.';
  const p = block.payload as Record<string, unknown>;
  switch (block.kind) {
    case 'plan':
      return JSON.stringify(ruleRoute(p as unknown as PlanView));
    case 'extract':
      return JSON.stringify(ruleProse(p as unknown as ProseView & { draw?: number }) ?? {});
    case 'verbalize':
      return templateRiddle(p as unknown as ClueView);
    case 'correct':
      return (p.titles as string[]).reduce((r, t) => r.split(t).join('that place'), String(p.riddle));
    case 'roundtrip':
      return JSON.stringify(ruleReadSteps(String(p.riddle)));
    case 'implied': {
      const values = new Map(Object.entries(p.values as Record<string, number>).map(([k, v]) => [Number(k), v]));
      const code = ruleImpliedCode(String(p.riddle), values);
      return `Applying the last clue's formula to the values found:\n${code ?? '?'}`;
    }
  }
}

/** One reply per request (Chat Completions or Messages body), usage estimated from the text. */
export function scriptedRespond(body: Body): { text: string; usage: { input: number; output: number; cached: number } } {
  const prompt = promptOf(body);
  const text = scriptedReply(prompt);
  return { text, usage: { input: Math.ceil((prompt.length + String(body.system ?? '').length) / 4), output: Math.ceil(text.length / 4), cached: 0 } };
}
