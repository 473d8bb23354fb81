import type { StepEstimate } from '../family.js';
import type { LoadedPair } from './load.js';
import { moveLimitOf } from './schema.js';
import type { GameScore } from './scoring/score.js';

/**
 * Tokens per move of the `llm` agent before any of its games was measured, from the paper's Table 1
 * ("usage per step"): its strongest models use 1,826 (GPT-5), 1,848 (Gemini 3) and 1,906 (Opus 4.5) tokens
 * per move, rounded up to 2,000. The prompt alone is about 500 (Gemini 2.0 Flash, no reasoning: 501), the
 * rest is the reply. That split gives back the paper's cost per move: GPT-5 at $1.25/$10 per M, 500 in and
 * 1,326 out, is 1.39 cents (paper 1.51); Opus 4.5 at $5/$25, 500 in and 1,406 out, 3.77 cents (paper 3.73).
 * Other agents (Claude Code, Codex) carry their framework's own prompts: their per-model-call figures apply.
 */
const LLM_PER_MOVE = { input: 500, output: 1_500, source: 'LLM-WikiRace paper, Table 1: ~2,000 tokens per move, 500 of them the prompt' };

/** `aar plan` counts WikiRace in moves: at most the move limit per game (not the model-call budget). */
export const WIKIRACE_ESTIMATE: StepEstimate<LoadedPair, GameScore> = {
  unit: 'move',
  allowed: (t) => moveLimitOf(t.pair),
  measured: (s) => ({ steps: s.steps, allowed: s.move_limit }),
  prior: (agentName) => (agentName === 'llm' ? LLM_PER_MOVE : undefined),
};
