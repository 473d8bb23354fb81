import { readFileSync } from 'node:fs';
import { packagePath } from '../../paths.js';
import { TOOLS, TOOL_GROUPS, type ToolDefinition } from '../../tools/catalog/index.js';
import { stepBudget, type Leg } from './schema.js';

export const DEFAULT_INSTRUCTION_TEMPLATE = packagePath('tasks', 'aar', 'instruction.md.tmpl');

const GROUP_TITLES: Record<(typeof TOOL_GROUPS)[number], string> = {
  web: 'Web',
  maps: 'Maps (distances in km, durations in minutes, elevations in meters)',
  weather: 'Weather (temperatures in deg C)',
  code: 'Code',
  countries: 'Countries',
  finance: 'Finance',
};

export interface InstructionOptions {
  /** Path of a template with `{{seed_url}}`, `{{seed_title}}`, `{{riddle}}`, `{{tools}}`, `{{step_budget}}`, `{{stops}}`. */
  templatePath?: string;
  /** Overrides the protocol's budget B = max(10, floor(1.5 K)). */
  stepBudget?: number;
}

/** The reference of the family's own tools, built once (documenting the arguments reads every schema). */
let defaultReference: string | undefined;

export function renderToolReference(tools: readonly ToolDefinition[] = TOOLS): string {
  if (tools === TOOLS) return (defaultReference ??= toolReference(TOOLS));
  return toolReference(tools);
}

function toolReference(tools: readonly ToolDefinition[]): string {
  const sections: string[] = [];
  for (const group of TOOL_GROUPS) {
    const inGroup = tools.filter((t) => t.group === group);
    if (!inGroup.length) continue;
    const lines = [`### ${GROUP_TITLES[group]}`, ''];
    for (const t of inGroup) {
      lines.push(`- **${t.name}**: ${t.summary} Returns ${t.returns}.`);
      for (const p of t.params) lines.push(`  - \`${p.name}\` (${p.type}${p.required ? ', required' : ''}): ${p.doc}`);
      lines.push(`  - Example: \`tools ${t.name} '${JSON.stringify(t.example)}'\``);
    }
    sections.push(lines.join('\n'));
  }
  return sections.join('\n\n');
}

const templateCache = new Map<string, string>();

export function renderInstruction(leg: Leg, options: InstructionOptions = {}): string {
  const path = options.templatePath ?? DEFAULT_INSTRUCTION_TEMPLATE;
  let template = templateCache.get(path);
  if (template === undefined) {
    template = readFileSync(path, 'utf8');
    templateCache.set(path, template);
  }
  const values: Record<string, string> = {
    seed_url: leg.seed_url,
    seed_title: leg.seed_title,
    riddle: leg.riddle.trim(),
    tools: renderToolReference(),
    step_budget: String(options.stepBudget ?? stepBudget(leg)),
    stops: String(leg.stops.length),
  };
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
}
