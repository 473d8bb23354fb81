import { readFileSync } from 'node:fs';
import { packagePath } from '../../paths.js';
import { GAME_TOOLS } from '../../tools/catalog/index.js';
import type { WikiraceTask } from './schema.js';

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

/** The instruction of one game; a template may use `{{source}}`, `{{target}}`, `{{step_budget}}`, `{{tools}}`. */
export function renderWikiraceInstruction(task: WikiraceTask, options: { templatePath?: string; stepBudget: number }): string {
  const template = readFileSync(options.templatePath ?? WIKIRACE_INSTRUCTION_TEMPLATE, 'utf8');
  const values: Record<string, string> = { source: task.source, target: task.target, step_budget: String(options.stepBudget), tools: renderGameTools() };
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}
