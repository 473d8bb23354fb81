import type { z } from 'zod';

export const TOOL_GROUPS = ['web', 'maps', 'weather', 'code', 'countries', 'finance'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/** One argument as documented to agents (the zod schema is what enforces it). */
export interface ParamDoc {
  name: string;
  type: string;
  required: boolean;
  doc: string;
}

/** A tool as agents see it: name, what it does, its arguments and one example call. */
export interface ToolDoc {
  name: string;
  group: ToolGroup;
  /** One sentence, shown in the instruction and by `tools NAME --help`. */
  summary: string;
  /** What a successful call returns, in one sentence. */
  returns: string;
  params: ParamDoc[];
  example: Record<string, unknown>;
  /** `container`: runs inside the trial container (python_execute_code); `gateway`: on the host. */
  runsIn: 'gateway' | 'container';
}

/** A tool with the zod schema that checks its arguments and normalises the variants agents send. */
export interface ToolDefinition extends ToolDoc {
  args: z.ZodType<Record<string, unknown>>;
}

export const param = (name: string, type: string, required: boolean, doc: string): ParamDoc => ({ name, type, required, doc });
