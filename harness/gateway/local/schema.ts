import type { GbnfJsonSchema } from './llama-api.js';

/**
 * An agent's tool schema (JSON Schema, any dialect) reduced to the subset node-llama-cpp turns into a
 * grammar: types, properties, items, enums, consts and alternatives. Anything else becomes a string, so a
 * schema the grammar cannot express still gives a call the agent can parse. An object keeps its required
 * properties (all of them when none are marked), since grammar objects have no optional keys.
 */
export function grammarSchema(schema: unknown, depth = 0): GbnfJsonSchema {
  const s = schema && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : {};
  if (depth > 8) return { type: 'string' };
  const primitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (Array.isArray(s.enum) && s.enum.length && s.enum.every(primitive)) return { enum: s.enum as (string | number | boolean | null)[] };
  if ('const' in s && primitive(s.const)) return { const: s.const as string | number | boolean | null };
  const alternatives = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length) return { oneOf: alternatives.map((a) => grammarSchema(a, depth + 1)) };
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || (type === undefined && s.properties)) {
    const properties = (s.properties && typeof s.properties === 'object' ? s.properties : {}) as Record<string, unknown>;
    const required = Array.isArray(s.required) ? (s.required as string[]).filter((k) => k in properties) : Object.keys(properties);
    return { type: 'object', properties: Object.fromEntries(required.map((k) => [k, grammarSchema(properties[k], depth + 1)])), additionalProperties: false };
  }
  if (type === 'array') return { type: 'array', items: grammarSchema(s.items, depth + 1) };
  if (type === 'number' || type === 'integer' || type === 'boolean' || type === 'null') return { type };
  return { type: 'string' };
}
