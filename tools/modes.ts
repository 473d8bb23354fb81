/** live: call the providers; record: call them and store every response; replay: serve stored responses only. */
export const TOOL_MODES = ['live', 'record', 'replay'] as const;
export type ToolMode = (typeof TOOL_MODES)[number];
