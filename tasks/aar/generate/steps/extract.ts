import { z } from 'zod';
import type { Fact, PageInfo } from '../draft.js';
import { dropped, kept, type StepResult } from '../draft.js';
import { askChecked, jsonIn, type ModelClient } from '../model/client.js';
import { dataBlock } from '../model/prompts.js';
import { isoDate, numberIn } from './facts.js';

/**
 * Prose extraction (part of step 3): a model reads a page's sections and names one number the text states
 * and what it is. Its answer is taken only when the number is written in the page and the description
 * neither gives the number away nor names the page. Without a model the pipeline extracts from infoboxes
 * and section lists only (facts.ts).
 */

export interface ProseView {
  sentences: { section: string; text: string }[];
}

/** The sentences of a page's sections that state a number. */
export function proseView(page: PageInfo): ProseView {
  const sentences = page.sections.flatMap((s) => s.text.split(/(?<=[.!?])\s+/).filter((t) => /\d/.test(t)).map((text) => ({ section: s.heading, text })));
  return { sentences };
}

const Answer = z.object({ value: z.union([z.string(), z.number()]).transform(String), what: z.string().min(3), section: z.string().optional() });

/** A model's answer checked against the page; the fact, or why it is refused. */
export function checkProseAnswer(page: PageInfo, view: ProseView, raw: unknown): StepResult<Fact> {
  const parsed = Answer.safeParse(raw);
  if (!parsed.success) return dropped('the extraction answer is not {value, what}');
  const value = parsed.data.value.trim();
  const what = parsed.data.what.trim();
  const sentence = view.sentences.find((s) => s.text.includes(value));
  if (!sentence) return dropped(`the extracted value "${value}" is not written in the page's text`);
  const number = numberIn(value) ?? (isoDate(value) ? Number(isoDate(value)!.slice(0, 4)) : null);
  if (number === null) return dropped(`the extracted value "${value}" is not a number`);
  if (what.includes(value) || what.length > 160) return dropped('the description gives the value away or is too long');
  if (what.toLowerCase().includes(page.title.toLowerCase())) return dropped('the description names the page');
  return kept({ key: 'prose', value, extracted: number, valueType: 'number', number: Math.trunc(number), iso: null, kind: 'prose', section: sentence.section, target: what, by: 'model' });
}

export const EXTRACT_SYSTEM = [
  'You read sentences from one Wikipedia page and pick one number a sentence states (a year, a count or a measure).',
  'Answer with JSON only: {"value": "<the number exactly as written>", "what": "<what the number is, in words, without the number and without the page title>", "section": "<the section it is in>"}.',
].join(' ');

export async function proseFact(page: PageInfo, model: ModelClient, draw: number): Promise<StepResult<Fact>> {
  const view = proseView(page);
  if (!view.sentences.length) return dropped(`"${page.title}" has no sentence that states a number`);
  const user = `Pick one number from these sentences (choice ${draw % 7}).\n\n${dataBlock('extract', { ...view, draw })}`;
  return askChecked(model, 'extract', { system: EXTRACT_SYSTEM, user, what: 'extraction' }, (reply) => checkProseAnswer(page, view, jsonIn(reply)));
}

/**
 * The rule the scripted test model answers extraction prompts with: a sentence by the draw, its first
 * number, and the sentence around the number as the description ("the year the town hall was completed").
 */
export function ruleProse(view: ProseView & { draw?: number }): { value: string; what: string; section: string } | undefined {
  // Sentences holding a full date are left out: their first number is a day, not what the sentence is about.
  const usable = view.sentences.filter((s) => !isoDate(s.text) && /\d\d/.test(s.text));
  if (!usable.length) return undefined;
  const s = usable[(view.draw ?? 0) % usable.length]!;
  const m = /(\d{1,3}(?:,\d{3})+|\d{2,}(?:\.\d+)?)/.exec(s.text)!;
  const value = m[1]!;
  const before = s.text.slice(0, m.index).trim().replace(/\s+(in|on|since|by|of)$/i, '');
  const after = s.text.slice(m.index! + value.length).replace(/[.!?]$/, '').trim();
  const what = /^\d{4}$/.test(value) && /\b(in|since|by)\s*$/i.test(s.text.slice(0, m.index))
    ? `the year ${lowerFirst(before)}`
    : `the number in: ${lowerFirst(before)} ___ ${after}`.replace(/\s+/g, ' ').trim();
  return { value, what, section: s.section };
}

const lowerFirst = (s: string): string => (/^(The|A|An|It|He|She|Its|Her|His)\b/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s);
