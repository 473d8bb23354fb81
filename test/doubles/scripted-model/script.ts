/**
 * The script of a scripted model: one entry per assistant turn. `bash` runs a command through the
 * agent's shell tool; `text` is a final answer that ends the conversation. Each turn reports the usage
 * given, or by default input 1000 + 10 * turn index, output 50, cached 0.
 */
export type ScriptTurn = ({ bash: string; text?: undefined } | { text: string; bash?: undefined }) & {
  /** Optional words said before a tool call (Anthropic text block / Chat content). */
  say?: string;
  usage?: Partial<TurnUsage>;
};

/**
 * Usage a turn reports. `input` counts every prompt token, cached ones included (as the gateway counts);
 * on the Anthropic wire it is split into input_tokens = input - cached and cache_read_input_tokens = cached.
 */
export interface TurnUsage {
  input: number;
  output: number;
  cached: number;
}

/** mini-swe-agent ends the task when a command's output starts with this line. */
export const MINI_SWE_SUBMIT = 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT';

/** What the model says this turn, once the protocol's shell tool is known. */
export type PlannedReply =
  | { kind: 'tool'; tool: string; input: Record<string, unknown>; command: string; say?: string; usage: TurnUsage; index: number }
  | { kind: 'text'; text: string; final: boolean; usage: TurnUsage; index: number };

/** The agent's shell tool: its name and how a command is put into its arguments. */
export interface ShellTool {
  name: string;
  args: (command: string) => Record<string, unknown>;
}

export function turnUsage(turn: ScriptTurn, index: number): TurnUsage {
  return { input: 1000 + index * 10, output: 50, cached: 0, ...turn.usage };
}

/** The turn at an index; past the end, the script's last text turn again (or "Done."). */
export function turnAt(script: readonly ScriptTurn[], index: number): ScriptTurn {
  if (index < script.length) return script[index];
  const last = script[script.length - 1];
  return last?.text !== undefined ? last : { text: 'Done.' };
}

export function planReply(script: readonly ScriptTurn[], index: number, shell: ShellTool | undefined): PlannedReply {
  const turn = turnAt(script, index);
  const usage = turnUsage(turn, index);
  if (turn.bash !== undefined && shell) return { kind: 'tool', tool: shell.name, input: shell.args(turn.bash), command: turn.bash, say: turn.say, usage, index };
  if (turn.bash !== undefined) return { kind: 'text', text: fencedBash(turn.say ?? 'I will run this next.', turn.bash), final: false, usage, index };
  return { kind: 'text', text: turn.text!, final: true, usage, index };
}

/** A reply for text-protocol agents (mini-swe-agent): one ```bash block holding the action. */
export const fencedBash = (thought: string, command: string): string => `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;

type Schema = { properties?: Record<string, { type?: unknown }> } | undefined;

const SHELL_NAMES = ['Bash', 'bash', 'exec_command', 'shell', 'run_shell_command', 'execute_bash', 'run_command', 'terminal'];

/**
 * Picks the shell tool among a request's function tools: a well-known name first (Bash for Claude Code,
 * exec_command or shell for Codex), else any tool taking a `cmd` or `command`. Arguments follow its
 * schema: `{cmd}`, `{command: "<string>"}` (+ `description` when it has one, as Claude Code's Bash), or
 * `{command: ["bash", "-lc", cmd]}` when `command` is an array.
 */
export function pickShellTool(tools: readonly { name: string; schema: Schema }[]): ShellTool | undefined {
  const usable = tools.filter((t) => t.schema?.properties?.cmd || t.schema?.properties?.command);
  const byName = SHELL_NAMES.map((n) => usable.find((t) => t.name === n)).find(Boolean);
  const tool = byName ?? usable[0];
  if (!tool) return undefined;
  const props = tool.schema!.properties!;
  if (props.cmd) return { name: tool.name, args: (cmd) => ({ cmd }) };
  if (props.command.type === 'array') return { name: tool.name, args: (cmd) => ({ command: ['bash', '-lc', cmd] }) };
  const describe = Boolean(props.description);
  return { name: tool.name, args: (cmd) => (describe ? { command: cmd, description: 'Run a shell command' } : { command: cmd }) };
}

/** Splits text into a few pieces, as a stream delivers it. */
export function pieces(text: string, count = 3): string[] {
  const chars = [...text];
  if (chars.length < count * 2) return text ? [text] : [];
  const size = Math.ceil(chars.length / count);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

let idCounter = 0;
/** A fresh id with the provider's prefix (toolu_, call_, msg_, resp_, chatcmpl-). */
export const newId = (prefix: string): string => `${prefix}${Date.now().toString(36)}${(++idCounter).toString(36).padStart(4, '0')}scripted`;
