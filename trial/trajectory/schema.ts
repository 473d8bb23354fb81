import { z } from 'zod';

/**
 * A trial's trajectory.json: ATIF, the Agent Trajectory Interchange Format of Harbor's RFC 0001, at the newest
 * version the `harbor` package's models accept (harbor 0.26.0: ATIF-v1.8). The schemas mirror those models
 * for the fields the harness writes (every object strict, as theirs forbid extra keys), so what passes here
 * passes `harbor.models.trajectories.Trajectory.model_validate` (checked in test/trial/trajectory/).
 */
export const ATIF_VERSION = 'ATIF-v1.8';
/** The file in the trial folder. */
export const TRAJECTORY_FILE = 'trajectory.json' as const;

const Extra = z.record(z.string(), z.unknown()).optional();

export const AtifToolCallSchema = z.strictObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  extra: Extra,
});

export const AtifObservationResultSchema = z.strictObject({
  source_call_id: z.string().optional(),
  content: z.string().optional(),
  extra: Extra,
});

export const AtifMetricsSchema = z.strictObject({
  prompt_tokens: z.number().int().optional(),
  completion_tokens: z.number().int().optional(),
  cached_tokens: z.number().int().optional(),
  cost_usd: z.number().optional(),
  extra: Extra,
});

const AGENT_ONLY = ['model_name', 'reasoning_content', 'tool_calls', 'metrics'] as const;

export const AtifStepSchema = z
  .strictObject({
    step_id: z.number().int().min(1),
    timestamp: z.iso.datetime().optional(),
    source: z.enum(['system', 'user', 'agent']),
    model_name: z.string().optional(),
    message: z.string(),
    reasoning_content: z.string().optional(),
    tool_calls: z.array(AtifToolCallSchema).optional(),
    observation: z.strictObject({ results: z.array(AtifObservationResultSchema) }).optional(),
    metrics: AtifMetricsSchema.optional(),
    llm_call_count: z.number().int().min(0).optional(),
    extra: Extra,
  })
  .superRefine((step, ctx) => {
    if (step.source !== 'agent') {
      for (const field of AGENT_ONLY) if (step[field] !== undefined) ctx.addIssue({ code: 'custom', message: `${field} is only for agent steps`, path: [field] });
    }
    if (step.source === 'agent' && step.llm_call_count === 0 && (step.metrics || step.reasoning_content !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'a step with llm_call_count 0 has no metrics or reasoning', path: ['llm_call_count'] });
    }
    const ids = new Set((step.tool_calls ?? []).map((c) => c.tool_call_id));
    for (const result of step.observation?.results ?? []) {
      if (result.source_call_id !== undefined && !ids.has(result.source_call_id)) {
        ctx.addIssue({ code: 'custom', message: `observation names ${result.source_call_id}, not a tool call of this step`, path: ['observation'] });
      }
    }
  });

export const AtifFinalMetricsSchema = z.strictObject({
  total_prompt_tokens: z.number().int().optional(),
  total_completion_tokens: z.number().int().optional(),
  total_cached_tokens: z.number().int().optional(),
  total_cost_usd: z.number().optional(),
  total_steps: z.number().int().min(0).optional(),
  extra: Extra,
});

export const AtifTrajectorySchema = z
  .strictObject({
    schema_version: z.literal(ATIF_VERSION),
    session_id: z.string().optional(),
    agent: z.strictObject({
      name: z.string(),
      version: z.string(),
      model_name: z.string().optional(),
      tool_definitions: z.array(z.record(z.string(), z.unknown())).optional(),
      extra: Extra,
    }),
    steps: z.array(AtifStepSchema).min(1),
    notes: z.string().optional(),
    final_metrics: AtifFinalMetricsSchema.optional(),
    extra: Extra,
  })
  .superRefine((t, ctx) => {
    t.steps.forEach((step, i) => {
      if (step.step_id !== i + 1) ctx.addIssue({ code: 'custom', message: `step_id ${step.step_id}, expected ${i + 1}`, path: ['steps', i, 'step_id'] });
    });
  });

export type AtifToolCall = z.infer<typeof AtifToolCallSchema>;
export type AtifObservationResult = z.infer<typeof AtifObservationResultSchema>;
export type AtifMetrics = z.infer<typeof AtifMetricsSchema>;
export type AtifStep = z.infer<typeof AtifStepSchema>;
export type AtifTrajectory = z.infer<typeof AtifTrajectorySchema>;
