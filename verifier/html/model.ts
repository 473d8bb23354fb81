/**
 * The data an HTML report embeds, as the page's script reads it. The overview and the charts are rendered
 * on the host; the trials table and the trial pages are drawn in the browser from this JSON.
 */

/** A cell of a table the page draws: a number (shown with `format`), a text, or nothing. */
export type Cell = string | number | boolean | null;

/** How a column's numbers are shown: pct = a share as a percentage, usd = dollars, num = as is. */
export type ColumnFormat = 'text' | 'pct' | 'num' | 'usd' | 'int';

export interface Column {
  key: string;
  label: string;
  format: ColumnFormat;
}

/** Columns from [key, label, format] triples. */
export const columns = (...specs: [key: string, label: string, format: ColumnFormat][]): Column[] => specs.map(([key, label, format]) => ({ key, label, format }));

/** A titled table of a trial page (the golden trace, the tool calls, the model turns...). */
export interface DetailTable {
  title: string;
  /** One sentence under the title: what the table shows and how to read it. */
  note?: string;
  columns: Column[];
  rows: Record<string, Cell>[];
  /** Row classes, by row index: `ok`, `miss`, `partial`, `muted`. */
  marks?: (string | null)[];
  /** Row anchors, by row index (the golden trace's `stop-<n>`, which the conversation's tool calls link to). */
  rowIds?: (string | null)[];
}

/** One row of the trials table; `cells` holds the family's columns (AAR: FA, PVR, RCR, diagnosis...). */
export interface TrialRow {
  id: string;
  agent: string;
  task: string;
  /** The trial's values of its family's two slice keys (ReportData.sliceKeys: AAR's variant and level). */
  coarse: string;
  fine: string;
  attempt: number;
  status: string;
  /** Whether the family counts the trial a success (AAR: FA 1; WikiRace: target reached); null when not scored. */
  correct: boolean | null;
  /** Wall time of the whole trial (trial.json timings.total_s) and its model cost (run.cost_usd). */
  wall_s: number | null;
  cost_usd: number | null;
  cells: Record<string, Cell>;
}

/** Everything a trial page shows, beyond its row. */
export interface TrialDetail {
  id: string;
  job: string;
  dir: string;
  instruction: string | null;
  answer: string | null;
  error: string | null;
  /** The score as score.json holds it, or null for an infrastructure error. */
  score: Record<string, unknown> | null;
  /** A short verdict line from the family (e.g. `incorrect (navigation)`). */
  verdict: string | null;
  /** Run facts and timings as key/value pairs. */
  facts: [string, Cell][];
  /** The family's tables first (AAR: the golden trace), then the tool calls and the model turns. */
  tables: DetailTable[];
  /** The end of the agent's own output (agent/stdout.log), when there is one. */
  agentOutput: string | null;
  /** Model turns and tool calls in time order (conversation/timeline.ts). */
  conversation: Conversation;
  /** A family's drawings (WikiRace: the path taken beside a shortest one), as SVG made and escaped on the host. */
  figures: { title: string; note: string; svg: string }[];
  /** The files of the trial folder (relative paths) and their sizes, for links to the raw files. */
  files: { path: string; bytes: number }[];
}

/** A part of a model message: text, reasoning (thinking), a tool call (name, arguments) or its result. */
export interface ChatPart {
  kind: 'text' | 'reasoning' | 'tool_call' | 'tool_result' | 'other';
  text: string;
  name?: string;
  id?: string;
  error?: boolean;
  /** Characters of `text` left out to bound the page (the whole is in model_log.jsonl). */
  cut?: number;
}

export interface ChatMessage {
  role: string;
  parts: ChatPart[];
}

/** One line of model_log.jsonl as the conversation shows it. */
export interface ModelStep {
  kind: 'model';
  /** Its line in model_log.jsonl (1-based). */
  line: number;
  ts: number | null;
  turn: number | null;
  model: string | null;
  status: number | null;
  input: number | null;
  output: number | null;
  cached: number | null;
  cost: number | null;
  latency: number | null;
  /** Error, note, budget refusal, or why the exchange was not recorded. */
  note: string | null;
  /** The system prompt, on the first request and whenever it changed; else null. */
  system: string | null;
  /** Characters of the system prompt left out to bound the page. */
  systemCut?: number;
  /** Messages of the request already shown with earlier turns (left out here). */
  earlier: number;
  /** The request does not repeat the previous request's messages (a new or rewritten context). */
  fresh: boolean;
  /** The request's new messages (those after the earlier ones, the previous answer as sent back left out). */
  messages: ChatMessage[];
  response: ChatMessage | null;
  /** Names of the tools offered, on the first line with that set. */
  tools: string[] | null;
  /** False when the line has no request (recording off, a cap, or a log written before it was kept). */
  recorded: boolean;
}

/** One line of tool_log.jsonl as the conversation shows it. */
export interface ToolStep {
  kind: 'tool';
  /** Its call number (1-based line in tool_log.jsonl), as the golden trace's #n. */
  n: number;
  ts: number | null;
  tool: string;
  args: string;
  ok: boolean;
  preview: string;
  latency: number | null;
  source: string | null;
  /** What the family says the call did (AAR: `page of stop 2; value of stop 2`). */
  note: string | null;
  /** The golden stops the call served (links to the golden trace's rows). */
  stops: number[];
}

export interface Conversation {
  steps: (ModelStep | ToolStep)[];
  /** Lines of each log in all (the page lists at most SHOWN_LINES of each). */
  modelLines: number;
  toolLines: number;
  /** Set when the page left text out to stay within its bound; says how much. */
  bounded: string | null;
}

export interface ReportData {
  title: string;
  generatedAt: string;
  jobs: string[];
  family: string;
  /** The family's slice keys (tasks/family.ts): the names of the rows' `coarse` and `fine`, in the filters, the table and the URL. */
  sliceKeys: [coarse: string, fine: string];
  /** The trials table's columns after the fixed ones (agent, task, the fine slice, status). */
  columns: Column[];
  rows: TrialRow[];
}
