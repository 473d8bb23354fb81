import { z } from 'zod';
import type { ParamDoc, ToolDefinition, ToolHelp, ToolSpec } from './types.js';

/** The parts of an argument's JSON Schema (with its zod metadata) that its documentation is made of. */
type JsonSchema = { type?: string; typeLabel?: string; undocumented?: boolean; description?: string; items?: JsonSchema };

const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** The object schema beneath the preprocessing steps a tool's arguments may go through. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  let s = schema as z.ZodType & { _zod: { def: { type: string; out?: z.ZodType } } };
  while (s._zod.def.type === 'pipe') s = s._zod.def.out as typeof s;
  if (!(s instanceof z.ZodObject)) throw new Error('a tool\'s arguments must be an object schema');
  return s.shape as Record<string, z.ZodType>;
}

/** The argument's type as agents read it: a `typeLabel` from the schema's metadata, else its JSON type. */
function typeLabel(json: JsonSchema): string | undefined {
  if (json.typeLabel) return json.typeLabel;
  if (json.type && SIMPLE_TYPES.has(json.type)) return json.type;
  if (json.type === 'array' && json.items?.type === 'string') return 'list of strings';
  return undefined;
}

/** The documented arguments, in the schema's order; an argument with `undocumented: true` in its metadata is left out. */
function paramDocs(tool: string, schema: z.ZodType): ParamDoc[] {
  const docs: ParamDoc[] = [];
  for (const [name, field] of Object.entries(objectShape(schema))) {
    const json = z.toJSONSchema(field, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
    if (json.undocumented) continue;
    const type = typeLabel(json);
    if (!type || !json.description) throw new Error(`${tool}.${name}: give the argument a description and a type agents can read`);
    docs.push({ name, type, required: field._zod.optout !== 'optional', doc: json.description });
  }
  return docs;
}

/**
 * A tool definition. Its schema is built, and its documented arguments read off it, when first asked for:
 * the verifier, which only resolves names, does not pay for either.
 */
export function defineTool(spec: ToolSpec): ToolDefinition {
  let args: z.ZodType<Record<string, unknown>> | undefined;
  let params: readonly ParamDoc[] | undefined;
  return {
    ...spec,
    get args() {
      return (args ??= spec.args());
    },
    get params() {
      return (params ??= paramDocs(spec.name, this.args));
    },
  };
}

/** The tool without its schema, for the in-container `tools` command (container/help-table.ts). */
export function toolHelp(tool: ToolDefinition): ToolHelp {
  const { name, aliases = [], group, summary, returns, params, example, runsIn } = tool;
  return { name, aliases, group, summary, returns, params, example, runsIn };
}
