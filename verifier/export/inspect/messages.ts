import type { AtifTrajectory } from '../../../trial/trajectory/index.js';

/** One Inspect chat message (inspect_ai.model.ChatMessage), as its JSON log holds it. */
export type InspectMessage = Record<string, unknown>;

/**
 * A trajectory's steps as Inspect's chat messages: system and user steps as they are, a model reply as an
 * assistant message (reasoning apart, tool calls with their ids) followed by one tool message per result, and
 * a tool-gateway call (no model call) as an assistant message marked in its metadata, then its result.
 */
export function inspectMessages(trajectory: AtifTrajectory): InspectMessage[] {
  const out: InspectMessage[] = [];
  for (const step of trajectory.steps) {
    if (step.source !== 'agent') {
      out.push({ role: step.source, content: step.message, source: 'input' });
      continue;
    }
    const content = step.reasoning_content ? [{ type: 'reasoning', reasoning: step.reasoning_content }, { type: 'text', text: step.message }] : step.message;
    const names = new Map((step.tool_calls ?? []).map((c) => [c.tool_call_id, c.function_name]));
    out.push({
      role: 'assistant',
      content,
      source: 'generate',
      ...(step.model_name ? { model: step.model_name } : {}),
      ...(step.tool_calls?.length ? { tool_calls: step.tool_calls.map((c) => ({ id: c.tool_call_id, function: c.function_name, arguments: c.arguments, type: 'function' })) } : {}),
      ...(step.llm_call_count === 0 ? { metadata: { aar: 'a call through the tool gateway, not a model reply' } } : {}),
    });
    for (const result of step.observation?.results ?? []) {
      out.push({
        role: 'tool',
        content: result.content ?? '',
        ...(result.source_call_id ? { tool_call_id: result.source_call_id, function: names.get(result.source_call_id) } : {}),
      });
    }
  }
  return out;
}
