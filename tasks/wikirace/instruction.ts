import { readFileSync } from 'node:fs';
import { packagePath } from '../../paths.js';
import { GAME_TOOLS } from '../../tools/catalog/index.js';
import { gameSeed } from './game/seed.js';
import { offeredLinks } from './graph/options.js';
import type { LoadedPair } from './load.js';
import { linkLimitOf, moveLimitOf } from './schema.js';

export const WIKIRACE_INSTRUCTION_TEMPLATE = packagePath('tasks', 'wikirace', 'instruction.md.tmpl');

/** The game tools as the instruction lists them: summary, arguments, an example call. */
export function renderGameTools(): string {
  return GAME_TOOLS.map((t) => {
    const lines = [`- **${t.name}**: ${t.summary} Returns ${t.returns}.`];
    for (const p of t.params) lines.push(`  - \`${p.name}\` (${p.type}${p.required ? ', required' : ''}): ${p.doc}`);
    const args = Object.keys(t.example).length ? ` '${JSON.stringify(t.example)}'` : '';
    lines.push(`  - Example: \`tools ${t.name}${args}\``);
    return lines.join('\n');
  }).join('\n');
}

/**
 * The links the game offers on the source page in this attempt, as `wikirace_state` will show them, so an
 * agent can make its first move without asking; without an attempt, a pointer to the tool.
 */
function startLinks({ id, pair, world }: LoadedPair, attempt: number | undefined): string {
  if (attempt === undefined) return 'Run `tools wikirace_state` to see the links of the source page.';
  const { graph, distances } = world;
  const links = offeredLinks(graph, distances.to(graph.pageOf(pair.target)!), graph.pageOf(pair.source)!, gameSeed(id, attempt), linkLimitOf(pair));
  return [`The links available on **${pair.source}** (${links.length}), as \`tools wikirace_state\` shows them:`, '', ...links.map((p) => `- ${graph.titles[p]}`)].join('\n');
}

/**
 * The instruction of one game; a template may use `{{source}}`, `{{target}}`, `{{step_budget}}` (the moves
 * the game allows), `{{model_calls}}` (the trial's model-call budget, options.stepBudget), `{{link_limit}}`,
 * `{{tools}}`, `{{start_links}}`.
 */
export function renderWikiraceInstruction(task: LoadedPair, options: { templatePath?: string; stepBudget: number; attempt?: number }): string {
  const template = readFileSync(options.templatePath ?? WIKIRACE_INSTRUCTION_TEMPLATE, 'utf8');
  const { pair } = task;
  const values: Record<string, string> = {
    source: pair.source,
    target: pair.target,
    step_budget: String(moveLimitOf(pair)),
    model_calls: String(options.stepBudget),
    link_limit: String(linkLimitOf(pair)),
    tools: renderGameTools(),
    start_links: startLinks(task, options.attempt),
  };
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}
