import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { probePairs } from '../../../tasks/wikirace/graph/probe.js';
import { EXAMPLE_GRAPH, syntheticGraph } from '../../../tasks/wikirace/graph/synthetic.js';
import { runProbe } from '../../../harness/wikirace/probe.js';
import { startScriptedModelServer } from '../../doubles/scripted-model/index.js';
import { AAR_BIN } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';

const HOST_KEY = 'sk-host-probe-key';
const graph = syntheticGraph(EXAMPLE_GRAPH);

describe('the world-knowledge probe through the model gateway', () => {
  test('a model that always says yes: recall 1, precision 0.5 on a balanced set; every question a logged turn', async () => {
    const model = await startScriptedModelServer({ script: [{ text: 'They are linked. \\boxed{yes}', usage: { input: 120, output: 8 } }], requireKey: HOST_KEY });
    const out = tempDir('aar-probe-').dir;
    try {
      const pairs = probePairs(graph, 8, 1);
      const s = await runProbe({ graph, pairs, model: 'claude-sonnet-4-5', api: 'anthropic', gateway: { anthropicBaseUrl: model.anthropicBaseUrl, anthropicApiKey: HOST_KEY }, out });
      expect(s).toMatchObject({ asked: 16, unparsed: 0, truePositive: 8, falsePositive: 8, precision: 0.5, recall: 1, turns: 16, inputTokens: 16 * 120, outputTokens: 16 * 8 });
      expect(s.f1).toBeCloseTo(2 / 3);
      expect(model.requests).toHaveLength(16);
      const first = model.requests[0]!.body as { messages: { content: string }[] };
      expect(first.messages).toHaveLength(1);
      expect(first.messages[0]!.content).toContain('\\boxed{yes} or \\boxed{no}');
      expect(readFileSync(path.join(out, 'model_log.jsonl'), 'utf8').trim().split('\n')).toHaveLength(16);
      const lines = readFileSync(path.join(out, 'probe.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.connected)).toHaveLength(8);
      expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')).recall).toBe(1);
    } finally {
      await model.stop();
    }
  });

  test('aar wikirace probe as a process, OpenAI chat, replies without an answer left out', async () => {
    const model = await startScriptedModelServer({ script: [{ text: 'I cannot tell.' }], requireKey: HOST_KEY });
    const out = tempDir('aar-probe-').dir;
    try {
      // Asynchronously: the scripted model answers from this process.
      const run = await promisify(execFile)(process.execPath, [AAR_BIN, 'wikirace', 'probe', path.join(REPO_ROOT, 'tasks', 'examples-wikirace', 'graph'), '--model', 'gpt-5-mini', '--api', 'openai', '--pairs', '4', '--out', out, '--base-url', model.openaiBaseUrl], {
        env: { ...process.env, OPENAI_API_KEY: HOST_KEY },
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('probe of gpt-5-mini: 8 pairs (4 linked, 4 not), 8 replies without \\boxed{yes|no} left out');
      expect(run.stdout).toContain('precision n/a  recall n/a  F1 n/a');
      expect(model.requests.map((r) => r.path)).toEqual(Array(8).fill('/v1/chat/completions'));
    } finally {
      await model.stop();
    }
  });
});
