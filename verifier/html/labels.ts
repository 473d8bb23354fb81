/** A configuration's name in the report: the agent, and its model when it has one (as `aar report` rows). */
export function configLabel(agent: string, model: string | null | undefined): string {
  return model && model !== '-' ? `${agent} (${model})` : agent;
}
