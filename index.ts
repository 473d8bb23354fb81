/**
 * AAR Harness as a library: the same operations as the `aar` command.
 */
export { PACKAGE_ROOT } from './paths.js';
export { HARNESS_VERSION } from './harness/version.js';

// task families: the interface and the registry (aar first)
export { taskFamily, findFamily, FAMILY_NAMES, DEFAULT_FAMILY } from './tasks/registry.js';
export type { TaskFamily, FamilyTask, TaskDescription, ContainerProgram, StoredTrial, FamilyReport, ReportSlice, CompareMetric } from './tasks/family.js';
export { aarFamily } from './tasks/aar/family.js';
export type { AarFigures } from './tasks/aar/scoring/report.js';

// AAR tasks: the leg format, loading, filters, validation, instructions
export * from './tasks/aar/schema.js';
export { loadLegs, loadLegFile, parseLeg, findLegFiles, type LoadedLeg, type LoadResult } from './tasks/aar/load.js';
export { filterLegs, TaskFilterSchema, type TaskFilter } from './tasks/aar/filter.js';
export { formatProblem, InputError, type InputProblem } from './tasks/problems.js';
export { renderInstruction, renderToolReference, DEFAULT_INSTRUCTION_TEMPLATE } from './tasks/aar/instruction.js';
export { validateLegs, validateLeg, formatValidationReport } from './tasks/aar/golden/validate.js';

// tools: the 19 AAR tools
export { TOOLS, TOOL_ALIASES, findTool, checkToolArgs, type ToolDefinition } from './tools/catalog/index.js';

// trial: the trial folder, trial.json, the tool-log line, the run facts
export * from './trial/index.js';

// verifier: scoring, re-verification, reports
export { scoreTrial, scoreToJson, referenceOnly, type TrialScore } from './tasks/aar/scoring/score.js';
export type { ReferenceFields } from './tasks/aar/scoring/reference.js';
export type { ToolLogSource } from './tasks/aar/scoring/tool-log.js';
export type { PaperMetrics, Diagnosis } from './tasks/aar/scoring/paper.js';
export { verifyJob, type VerifySummary } from './verifier/verify.js';
export { loadJobResults, scoreTrialDir, type TrialResult } from './verifier/results.js';
export { aggregate, type AggregateRow } from './verifier/aggregate.js';
export { renderReport, REPORT_FORMATS, type ReportFormat } from './verifier/report.js';

// compare: configurations at equal budgets, paired; the paper's tables; the reference Harbor layout
export { loadConfigurations, type Configuration, type JobFacts } from './verifier/compare/select.js';
export { checkBudgets, UnequalBudgetsError, type BudgetCheck, type BudgetDifference } from './verifier/compare/budgets.js';
export { compareConfigurations, type CompareOptions, type CompareResult, type PairedRow } from './verifier/compare/compare.js';
export { renderTables, TABLE_FORMATS } from './verifier/compare/render.js';
export { paperTables } from './verifier/paper-tables/index.js';
export { tableToMarkdown, tableToCsv, type DataTable } from './common/table.js';
export { verifyHarborDir, checkHarborTrial, type HarborVerifySummary } from './tasks/aar/harbor/layout.js';

// harness: jobs in Docker
export { runJob, type RunJobOptions, type JobSummary } from './harness/jobs/job.js';
export { previewJob, type JobPreview } from './harness/plan/preview.js';
export { chooseConcurrency, type ConcurrencyChoice } from './harness/jobs/concurrency.js';
export { parseJobConfig, loadJobConfig } from './harness/config/load.js';
export { JobConfigSchema, type JobConfig, type AgentConfig } from './harness/config/schema.js';
export { agentAdapter, AGENT_NAMES } from './harness/agents/registry.js';
export type { AgentAdapter, AgentContext, AgentLaunch } from './harness/agents/types.js';
export { environmentProvider, ENVIRONMENT_NAMES } from './harness/environments/registry.js';
export type { EnvironmentProvider, TrialEnvironment } from './harness/environments/types.js';
export { GatewayServer } from './harness/gateway/server.js';
export { ToolService, TOOL_MODES, type ToolMode } from './tools/service.js';
export { ResponseStore } from './tools/store/store.js';
export { createProviderContext } from './tools/providers/registry.js';
export { readProvenance, storeFingerprint, type Recorder, type RecordingSession, type WorldManifest } from './tools/store/provenance.js';
export { describeStore, type StoreInfo } from './tools/store/info.js';
export { packStore, unpackStore } from './tools/store/pack.js';
export { synthesizeWorld } from './tasks/aar/world/synthesize.js';
export { auditLegs, auditLeg, notHolding, type AuditReport, type LegAudit, type LegStatus } from './tasks/aar/world/audit.js';
export { collectFacts, applyDrift, type UpstreamFacts, type Drift } from './tasks/aar/world/upstream/facts.js';
export { StandInUpstream } from './tasks/aar/world/upstream/server.js';

// plugins: the API a package outside this one uses to add entries to the seams, and the seams' conformance suites
export { definePlugin, PLUGIN_API_VERSION, type Plugin, type PluginFamily, type PluginToolProvider, type PluginToolSpec } from './harness/plugins/api.js';
export { loadPlugin, loadPlugins } from './harness/plugins/load.js';
export { loadJobConfigWithPlugins } from './harness/plugins/config.js';
export { checkPlugin, type SuiteResult } from './harness/plugins/check.js';
export { runSuite, type ConformanceSuite, type ConformanceCheck, type CheckOutcome } from './common/conformance.js';
export type { EnvironmentDefinition } from './harness/environments/define.js';
export type { ModelApiModule, ModelRouteSpec } from './harness/gateway/models/apis/types.js';
export type { Exporter, ExportJob, ExportTrial } from './verifier/export/types.js';
export type { ProviderSpec } from './tools/providers/define.js';
export type { TranscriptReader } from './trial/trajectory/exchanges.js';
export type { FamilyDeclaration, TrialScorer, TrialSessionContext, SliceKeys, FamilyCli } from './tasks/family.js';
export type { TrialToolSession } from './tools/session.js';
export type { ToolResult } from './tools/providers/types.js';
export { replyReader, readMessages, contentText } from './trial/trajectory/exchanges.js';
export { jobConfigSchema } from './harness/config/schema.js';
/** The zod a plugin builds its schemas with (a task family's filter, a tool's arguments, an environment's settings): the harness's own copy. */
export { z } from 'zod';
