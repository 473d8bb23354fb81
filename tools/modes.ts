/**
 * live: call the providers; record: call them and store every response; replay: serve stored responses only;
 * pinned: serve a stored response when there is one, else call the provider and store its answer (the first
 * answer stored for a call stays: the world is pinned as it was first seen).
 */
export const TOOL_MODES = ['live', 'record', 'replay', 'pinned'] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

/** Modes that serve stored responses, and whose store a plan checks against the legs' golden calls. */
export const STORED_MODES: readonly ToolMode[] = ['replay', 'pinned'];
