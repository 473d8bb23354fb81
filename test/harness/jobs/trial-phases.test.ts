import path from 'node:path';
import { JobConfigSchema } from '../../../harness/config/schema.js';
import type { EnvironmentProvider, EnvironmentSpec, TrialWork, TrialWorkResult } from '../../../harness/environments/types.js';
import { agentAdapter } from '../../../harness/agents/registry.js';
import { GatewayServer } from '../../../harness/gateway/server.js';
import { runTrialOnce, type TrialRunContext } from '../../../harness/jobs/trial/index.js';
import { aarFamily } from '../../../tasks/aar/family.js';
import type { TaskFamily } from '../../../tasks/family.js';
import { tamperedFiles } from '../../../trial/file-hashes.js';
import { readTrialRecord } from '../../../trial/record.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { ToolService } from '../../../tools/service.js';
import { readFileSync } from 'node:fs';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { EXAMPLE_STORE } from '../../helpers/jobs.js';

/**
 * A sandbox in this process (the phases, not Docker, are under test): its agent makes one real tool call
 * through the gateway on loopback with its trial token and answers 3.
 */
function loopbackSandbox(gatewayUrl: string): EnvironmentProvider {
  return {
    name: 'loopback',
    async start(spec: EnvironmentSpec) {
      const token = spec.env.AAR_TRIAL_TOKEN;
      return {
        id: 'loopback-1',
        async run(work: TrialWork): Promise<TrialWorkResult> {
          const res = await fetch(`${gatewayUrl}/v1/tools/call`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ tool: 'no_such_tool', args: {} }) });
          await res.text();
          void work;
          return { exitCode: 0, timedOut: false, durationMs: 5, stdout: Buffer.from('done\n'), stderr: Buffer.alloc(0), files: { '/app/answer.txt': Buffer.from('3') }, dirs: {}, node: null, cuts: [] };
        },
        kill: async () => {},
        remove: async () => {},
      };
    },
  } as unknown as EnvironmentProvider;
}

describe('a trial in phases', () => {
  const tmp = tempDir('aar-trial-phases-');
  let gateway: GatewayServer;
  afterAll(async () => {
    await gateway?.close();
    tmp.cleanup();
  });

  test('is scored by the family it holds after the gateway let go of its token, and sealed whole', async () => {
    gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(EXAMPLE_STORE) }) });
    const gatewayUrl = await gateway.listenTcp();
    const { tasks } = await aarFamily.load([EXAMPLES_DIR]);
    const registeredWhenScored: number[] = [];
    const family = { ...aarFamily, score: (trial) => (registeredWhenScored.push(gateway.trials.size), aarFamily.score(trial)) } as TaskFamily;
    const agent = { name: 'command', options: { command: 'true' } } as never;
    const ctx: TrialRunContext = {
      jobDir: path.join(tmp.dir, 'job'),
      jobName: 'phases',
      jobKey: 'k',
      config: JobConfigSchema.parse({ tasks: { path: EXAMPLES_DIR }, agents: [{ name: 'command', options: { command: 'true' } }], budget: { steps: 12 } }),
      family,
      environment: loopbackSandbox(gatewayUrl),
      gateway,
      gatewaySocketDir: tmp.dir,
      gatewaySocketName: 'unused.sock',
      images: new Map([['command', 'unused']]),
      signal: new AbortController().signal,
      running: new Set(),
      retire: (sandbox) => void sandbox.remove(),
    };
    const plan = { trialId: 'command__t__1', agent, agentId: 'command', adapter: agentAdapter('command'), task: tasks[0], attempt: 1, seed: 1 };
    const outcome = await runTrialOnce(ctx, plan);

    expect(registeredWhenScored).toEqual([0]);
    expect(gateway.trials.size).toBe(0);
    const dir = path.join(ctx.jobDir, plan.trialId);
    const record = readTrialRecord(dir);
    expect(record).toMatchObject({ status: 'completed', step_budget: 12, run: { exit_code: 0 } });
    expect(outcome.score).toMatchObject({ step_budget: 12, agent_answer: '3', tool_calls: 1 });
    expect(readFileSync(path.join(dir, 'tool_log.jsonl'), 'utf8')).toContain('"tool":"no_such_tool"');
    expect(tamperedFiles(dir, record)).toEqual([]);
    // The score written is the one scoring the stored folder gives (the run facts in one shape, not re-read).
    expect(readFileSync(path.join(dir, 'score.json'), 'utf8')).toBe(aarFamily.scoreToJson(outcome.score as never));
  });
});
