import { contentText, isObject, list, pushCall, readMessages, replyReader, str, type TranscriptReader } from '../../../../../trial/trajectory/exchanges.js';

/** Anthropic Messages as the trajectory reads it: `system` and `messages` (tool results are blocks of user messages); the reply's content blocks. */
export const anthropicTranscript: TranscriptReader = {
  request: (body) => ({ messages: readMessages(body.messages), system: (body.system !== undefined ? contentText(body.system) : '') || null }),
  reply: replyReader((response, { texts, reasoning, calls }) => {
    for (const block of list(response.content)) {
      if (!isObject(block)) continue;
      if (block.type === 'text') texts.push(str(block.text));
      else if (block.type === 'thinking') reasoning.push(str(block.thinking));
      else if (block.type === 'redacted_thinking') reasoning.push('[redacted thinking]');
      else if (block.type === 'tool_use' || block.type === 'server_tool_use') pushCall(calls, block.id, block.name, block.input);
    }
  }),
};
