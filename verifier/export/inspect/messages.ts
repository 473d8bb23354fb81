import { createHash } from 'node:crypto';
import type { AtifStep, AtifTrajectory } from '../../../trial/trajectory/index.js';

/** One Inspect chat message (inspect_ai.model.ChatMessage), as its JSON log holds it. */
export type InspectMessage = Record<string, unknown> & { id: string; role: string };

/** A short id made from a name: the same trial exports the same ids. */
export const idOf = (name: string): string => createHash('sha256').update(name).digest('base64url').slice(0, 22);

/** Where a trajectory step's messages are in the sample's list: the model's reply (if any) and its tool results. */
export interface StepMessages {
  step: AtifStep;
  /** Index of the assistant message of an agent step. */
  reply?: number;
  /** Indexes of the tool messages answering its calls. */
  results: number[];
}

/**
 * A trajectory's steps as Inspect's chat messages: system and user steps as they are, a model reply as an
 * assistant message (reasoning apart, tool calls with their ids) followed by one tool message per result, and
 * a tool-gateway call (no model call) as an assistant message marked in its metadata, then its result.
 */
export function inspectMessages(trajectory: AtifTrajectory, sampleKey: string): { messages: InspectMessage[]; steps: StepMessages[] } {
  const messages: InspectMessage[] = [];
  const steps: StepMessages[] = [];
  const push = (m: Omit<InspectMessage, 'id'>): number => messages.push({ id: idOf(`${sampleKey}/message/${messages.length}`), ...m } as InspectMessage) - 1;
  for (const step of trajectory.steps) {
    if (step.source !== 'agent') {
      push({ role: step.source, content: step.message, ...(step.source === 'user' ? { source: 'input' } : {}) });
      steps.push({ step, results: [] });
      continue;
    }
    const content = step.reasoning_content ? [{ type: 'reasoning', reasoning: step.reasoning_content }, { type: 'text', text: step.message }] : step.message;
    const names = new Map((step.tool_calls ?? []).map((c) => [c.tool_call_id, c.function_name]));
    const reply = push({
      role: 'assistant',
      content,
      source: 'generate',
      ...(step.model_name ? { model: step.model_name } : {}),
      ...(step.tool_calls?.length ? { tool_calls: step.tool_calls.map((c) => ({ id: c.tool_call_id, function: c.function_name, arguments: c.arguments, type: 'function' })) } : {}),
      ...(step.llm_call_count === 0 ? { metadata: { aar: 'a call through the tool gateway, not a model reply' } } : {}),
    });
    const results = (step.observation?.results ?? []).map((result) =>
      push({
        role: 'tool',
        content: result.content ?? '',
        ...(result.source_call_id ? { tool_call_id: result.source_call_id, function: names.get(result.source_call_id) } : {}),
      }),
    );
    steps.push({ step, reply, results });
  }
  return { messages, steps };
}
