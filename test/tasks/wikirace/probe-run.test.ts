import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { probePairs, type ProbeClass } from '../../../tasks/wikirace/graph/probe.js';
import { EXAMPLE_GRAPH, syntheticGraph } from '../../../tasks/wikirace/graph/synthetic.js';
import { openModelGateway } from '../../../harness/cli/services.js';
import { runProbe } from '../../../tasks/wikirace/probe-run.js';
import { startScriptedModelServer } from '../../doubles/scripted-model/index.js';
import { AAR_BIN } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';

const HOST_KEY = 'sk-host-probe-key';
const graph = syntheticGraph(EXAMPLE_GRAPH);

describe('the world-knowledge probe through the model gateway', () => {
  test('a model that always says yes: recall 1, precision 0.2 on the paper\'s 1:4 set; every question a logged turn', async () => {
    const model = await startScriptedModelServer({ script: [{ text: 'They are linked. \\boxed{yes}', usage: { input: 120, output: 8 } }], requireKey: HOST_KEY });
    const out = tempDir('aar-probe-').dir;
    try {
      const pairs = probePairs(graph, 4, 1);
      const s = await runProbe({ graph, pairs, model: 'claude-sonnet-4-5', api: 'anthropic', gateway: await openModelGateway({ anthropicBaseUrl: model.anthropicBaseUrl, anthropicApiKey: HOST_KEY }, out, 'wikirace-probe'), out });
      expect(s).toMatchObject({ asked: 20, unparsed: 0, failed: 0, truePositive: 4, falsePositive: 16, precision: 0.2, recall: 1, turns: 20, inputTokens: 20 * 120, outputTokens: 20 * 8 });
      expect(s.f1).toBeCloseTo(1 / 3);
      expect(model.requests).toHaveLength(20);
      const first = model.requests[0]!.body as { messages: { content: string }[] };
      expect(first.messages).toHaveLength(1);
      expect(first.messages[0]!.content).toContain('\\boxed{yes} or \\boxed{no}');
      expect(readFileSync(path.join(out, 'model_log.jsonl'), 'utf8').trim().split('\n')).toHaveLength(20);
      const lines = readFileSync(path.join(out, 'probe.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.connected)).toHaveLength(4);
      expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')).recall).toBe(1);
    } finally {
      await model.stop();
    }
  });

  test('per class, checked by hand: yes to linked and reversed, no to distance 2, no answer at 3, a failed request at 4; a failure is recorded, not fatal', async () => {
    const pairs = probePairs(graph, 5, 3);
    const classOf = new Map(pairs.map((p) => [`${graph.titles[p.source]}>${graph.titles[p.target]}`, p.kind]));
    expect(classOf.size).toBe(25); // no pair asked twice: the reply depends on the pair's class alone
    const answers: Record<ProbeClass, string | null> = { connected: '\\boxed{yes}', reversed: 'Surely \\boxed{yes}', 'distance-2': '\\boxed{no}', 'distance-3': 'Hard to say.', 'distance-4': null };
    const model = await startScriptedModelServer({
      script: [{ text: 'unused' }],
      requireKey: HOST_KEY,
      respond: (body) => {
        const prompt = String((body.messages as { content: string }[])[0]!.content);
        const field = (name: string): string => new RegExp(`^${name}: "(.*)"$`, 'm').exec(prompt)![1]!;
        const text = answers[classOf.get(`${field('Source page')}>${field('Target page')}`)!];
        if (text === null) throw new Error('scripted failure'); // the double answers 500
        return { text };
      },
    });
    const out = tempDir('aar-probe-').dir;
    try {
      const s = await runProbe({ graph, pairs, model: 'gpt-5-mini', api: 'openai', gateway: await openModelGateway({ openaiBaseUrl: model.openaiBaseUrl, openaiApiKey: HOST_KEY, maxAttempts: 1 }, out, 'wikirace-probe'), out });
      expect(s).toMatchObject({ asked: 25, failed: 5, unparsed: 5, truePositive: 5, falsePositive: 5, trueNegative: 5, falseNegative: 0, precision: 0.5, recall: 1 });
      expect(s.accuracyByClass).toEqual({ connected: 1, 'distance-2': 1, 'distance-3': null, 'distance-4': null, reversed: 0 });
      expect(s.versusClass['distance-2']).toEqual({ precision: 1, recall: 1, f1: 1 });
      expect(s.versusClass.reversed).toMatchObject({ precision: 0.5, recall: 1 });
      const sent = model.requests.map((r) => r.body as Record<string, unknown>);
      expect(sent.every((b) => b.max_completion_tokens === 1024 && !('max_tokens' in b))).toBe(true);
      const lines = readFileSync(path.join(out, 'probe.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.error)).toHaveLength(5);
      expect(lines.filter((l) => l.error).every((l) => l.kind === 'distance-4' && l.answer === null && /HTTP 5\d\d/.test(l.error))).toBe(true);
    } finally {
      await model.stop();
    }
  });

  test('aar wikirace probe as a process, OpenAI chat, replies without an answer left out', async () => {
    const model = await startScriptedModelServer({ script: [{ text: 'I cannot tell.' }], requireKey: HOST_KEY });
    const out = tempDir('aar-probe-').dir;
    try {
      // Asynchronously: the scripted model answers from this process.
      const run = await promisify(execFile)(process.execPath, [AAR_BIN, 'wikirace', 'probe', path.join(REPO_ROOT, 'tasks', 'examples-wikirace', 'graph'), '--model', 'gpt-5-mini', '--api', 'openai', '--pairs', '2', '--out', out, '--base-url', model.openaiBaseUrl], {
        env: { ...process.env, OPENAI_API_KEY: HOST_KEY },
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('probe of gpt-5-mini: 10 pairs (2 linked, 8 not), 10 replies without \\boxed{yes|no} and 0 failed requests left out');
      expect(run.stdout).toContain('precision n/a  recall n/a  F1 n/a');
      expect(model.requests.map((r) => r.path)).toEqual(Array(10).fill('/v1/chat/completions'));
      // What a job's Figure 1 joins the probe by: its model and the graph's checksum.
      const graphSha = JSON.parse(readFileSync(path.join(REPO_ROOT, 'tasks', 'examples-wikirace', 'graph', 'graph.json'), 'utf8')).sha256;
      expect(JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8'))).toMatchObject({ model: 'gpt-5-mini', graph_sha256: graphSha, pairs_per_class: 2, seed: 1 });
    } finally {
      await model.stop();
    }
  });
});
