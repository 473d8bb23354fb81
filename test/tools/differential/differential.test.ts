import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { executeTool } from '../../../container/execute.js';
import type { GatewayAddress } from '../../../container/gateway-client.js';
import { GatewayServer } from '../../../harness/gateway/server.js';
import { loadLegs, type LoadedLeg } from '../../../tasks/aar/load.js';
import { chainValue, sameGoldenValue } from '../../../tasks/aar/world/golden-value.js';
import { runChain } from '../../../tasks/aar/world/golden-calls.js';
import { collectFacts, factKeys } from '../../../tasks/aar/world/upstream/facts.js';
import { routeSeconds } from '../../../tasks/aar/world/upstream/google.js';
import { HOST_ROUTES, StandInUpstream } from '../../../tasks/aar/world/upstream/server.js';
import { articleHtml, pageOf, plainWeb } from '../../../tasks/aar/world/upstream/web.js';
import { TOOLS } from '../../../tools/catalog/index.js';
import { createProviderContext } from '../../../tools/providers/registry.js';
import { ToolService } from '../../../tools/service.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';
import { REFERENCE_DIR, referencePython } from '../../helpers/reference-tools.js';
import { handCases, legCases, type DifferentialCase } from './cases.js';
import { ALLOWED, compareAnswers, htmlWords, type Answer, type Verdict } from './compare.js';

/**
 * Our tools against the AAR authors' own tool code (the MCP servers their golden values were computed with),
 * both answering from one stand-in upstream on loopback: ours through the real gateway (the in-container
 * `tools` command's own path), theirs through their ToolRegistry in a throwaway venv. Per tool and case, the
 * information an agent receives must be the same, or the difference must be on the reasoned allow-list
 * (compare.ts). The table of verdicts is printed, and written to <tmp>/aar-differential-table.md.
 */

const THEIR_NAME: Record<string, string> = { web_search: 'serper_google_search' };
const dirs = tempDir('aar-differential-');
const SCRIPT = path.join(path.dirname(new URL(import.meta.url).pathname), 'reference_driver.py');

interface Outcome {
  c: DifferentialCase;
  tool: string;
  step: number;
  ours: Answer;
  theirs: Answer;
  verdict: Verdict;
}

let standIn: StandInUpstream;
let gatewayServer: GatewayServer;
let legs: LoadedLeg[];
let cases: DifferentialCase[];
let shapes: Map<string, number>;
const outcomes: Outcome[] = [];
const ours = new Map<string, Answer[]>();
let theirs: Record<string, Answer[]> = {};

async function runTheirs(python: string, job: unknown): Promise<Record<string, Answer[]>> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [SCRIPT], { env: { ...process.env, PYTHONWARNINGS: 'ignore' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`reference driver exited ${code}: ${stderr.slice(-3000)}`))));
    child.stdin.end(JSON.stringify(job));
  });
}

async function runOurs(gateway: GatewayAddress, c: DifferentialCase): Promise<Answer[]> {
  const answers: Answer[] = [];
  try {
    await runChain(c.steps, async (call) => {
      const reply = await executeTool(gateway, call.tool, call.args);
      answers.push({ ok: reply.ok, text: reply.text });
      if (!reply.ok) throw new Error('stop');
      return reply.text;
    });
  } catch {
    // a failed step ends the chain, as on their side
  }
  return answers;
}

describeWithData("our tools answer as the golden values' tools did (against the AAR authors' code, one stand-in upstream)", () => {
  beforeAll(async () => {
    const python = referencePython();
    legs = (await loadLegs([AAR_DATA_DIR])).legs;
    const fromLegs = legCases(legs);
    shapes = fromLegs.shapes;
    const caseLegs = new Set(fromLegs.cases.map((c) => c.id.slice(4).split('#')[0]));
    const facts = await collectFacts(legs.filter((l) => caseLegs.has(l.id) || l.leg.stops.some((s) => s.bridge.tool_chain.at(-1)?.tool_name === 'maps_directions')));
    standIn = await new StandInUpstream(facts).start();
    // A leg route whose seconds are 57-59 past a whole minute: minutes rounded to 0.1 would be a minute over.
    const slow = legs.flatMap((l) => l.leg.stops.flatMap((s) => {
      const step = s.bridge.tool_chain.at(-1);
      if (step?.tool_name !== 'maps_directions' || typeof s.extracted_value !== 'number') return [];
      const a = step.arguments as { origin: string; destination: string; mode?: string };
      return routeSeconds(factKeys.directions(a.origin, a.destination, a.mode ?? 'driving'), s.extracted_value) % 60 >= 57 ? [{ origin: a.origin, destination: a.destination }] : [];
    }))[0];
    cases = [...handCases(`${standIn.url}/web`, slow), ...fromLegs.cases];

    const service = new ToolService({
      mode: 'live',
      // The comparison is of what the tools answer: the gateway's cut (the paper's 8,000 characters) is set past it.
      outputLimit: 10_000_000,
      providers: createProviderContext({ endpoints: standIn.endpoints, keys: { google: 'k', serper: 'k', codeModel: 'k' }, httpOptions: { allowAddresses: [new URL(standIn.url).host] } }),
    });
    gatewayServer = new GatewayServer({ tools: service });
    const url = await gatewayServer.listenTcp();
    const trial = gatewayServer.trials.register({ trialId: 'differential', toolLogPath: path.join(dirs.dir, 'tool_log.jsonl') });
    const gateway: GatewayAddress = { url, token: trial.token };

    const job = {
      reference: REFERENCE_DIR,
      stand_in: standIn.url,
      routes: HOST_ROUTES,
      cases: cases.map((c) => ({ id: c.id, steps: c.steps.map((s) => ({ tool: THEIR_NAME[s.tool_name] ?? s.tool_name, args: s.arguments, output_key: s.output_key ?? null })) })),
    };
    const [theirAnswers] = await Promise.all([
      python.then((p) => runTheirs(p, job)),
      (async () => {
        for (const c of cases) ours.set(c.id, await runOurs(gateway, c));
      })(),
    ]);
    theirs = theirAnswers;

    for (const c of cases) {
      const mine = ours.get(c.id)!;
      const their = theirs[c.id] ?? [];
      c.steps.forEach((step, i) => {
        if (!mine[i] && !their[i]) return;
        const o = mine[i] ?? { ok: false, text: '(ours did not get to this step)' };
        const t = their[i] ?? { ok: false, text: '(theirs did not get to this step)' };
        let page: { words: string; links: string[]; wikipedia: boolean } | undefined;
        if (step.tool_name === 'fetch_webpage') {
          const url = String(step.arguments.url);
          const wiki = /^https:\/\/([a-z]+)\.wikipedia\.org\/wiki\/(.+)$/.exec(url);
          if (wiki) {
            const p = pageOf(standIn.facts, wiki[1], decodeURIComponent(wiki[2]));
            const html = p ? articleHtml(p) : '';
            // The article's words and links, less Wikipedia's furniture (edit links, reference markers, navigation boxes).
            const furniture = /<span class="mw-editsection">[\s\S]*?<\/span><\/span>|<div class="navbox"[\s\S]*?<\/div>|<sup[^>]*class="reference"[\s\S]*?<\/sup>/g;
            page = { words: htmlWords(html.replace(furniture, ' ')), links: p?.links.map((l) => new URL(l).pathname) ?? [], wikipedia: true };
          } else {
            // A plain page: the words of its body, as the stand-in serves it.
            const served = plainWeb()({ upstream: 'web', method: 'GET', path: new URL(url).pathname.replace(/^\/web/, ''), query: {}, headers: {}, body: '' });
            const body = typeof served.body === 'string' && (served.status ?? 200) < 300 ? (/<body[^>]*>([\s\S]*)<\/body>/i.exec(served.body)?.[1] ?? served.body) : '';
            page = { words: htmlWords(body), links: [], wikipedia: false };
          }
        }
        outcomes.push({ c, tool: step.tool_name, step: i, ours: o, theirs: t, verdict: compareAnswers(step.tool_name, step.arguments, o, t, page) });
      });
    }
    writeFileSync(path.join(os.tmpdir(), 'aar-differential-table.md'), table());
    process.stdout.write(`\n${table()}\n`);
  }, 30 * 60_000);

  afterAll(async () => {
    await gatewayServer?.close();
    await standIn?.stop();
    dirs.cleanup();
  });

  function table(): string {
    const rows = TOOLS.map((tool) => {
      const mine = outcomes.filter((o) => o.tool === tool.name);
      const count = (k: Verdict['kind']) => mine.filter((o) => o.verdict.kind === k).length;
      const reasons = new Map<string, number>();
      for (const o of mine) if (o.verdict.kind === 'allowed') for (const r of o.verdict.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
      return `| ${tool.name} | ${mine.length} | ${count('equal')} | ${count('allowed')} | ${[...reasons].map(([r, n]) => `${r} (${n})`).join(', ') || '-'} | ${count('different')} |`;
    });
    const used = new Set(outcomes.flatMap((o) => (o.verdict.kind === 'allowed' ? o.verdict.reasons : [])));
    return [
      `Differential run: ${outcomes.length} calls in ${cases.length} cases (${cases.filter((c) => c.golden !== undefined).length} golden chains of the legs, covering all ${shapes.size} argument shapes)`,
      '',
      '| tool | calls | equal | allowed difference | reasons | different |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      ...[...used].sort().map((r) => `- ${r}: ${ALLOWED[r]}`),
      ...outcomes.filter((o) => o.verdict.kind === 'different').map((o) => `- DIFFERENT ${o.c.id} step ${o.step} (${o.tool}): ${(o.verdict as { detail: string }).detail}`),
    ].join('\n');
  }

  test.each(TOOLS.map((t) => t.name))('%s: at least 5 calls, each equal or an allowed difference', (tool) => {
    const mine = outcomes.filter((o) => o.tool === tool);
    expect(mine.length).toBeGreaterThanOrEqual(5);
    const different = mine.filter((o) => o.verdict.kind === 'different').map((o) => `${o.c.id} step ${o.step}: ${(o.verdict as { detail: string }).detail}`);
    expect(different).toEqual([]);
  });

  test("every argument shape of the legs' golden chains is a case, and both sides give its golden value", () => {
    const legCaseList = cases.filter((c) => c.golden !== undefined);
    expect(new Set(legCaseList.map((c) => c.note)).size).toBe(shapes.size);
    const wrong: string[] = [];
    for (const c of legCaseList) {
      const last = c.steps.at(-1)!;
      for (const [side, answers] of [['ours', ours.get(c.id)!], ['theirs', theirs[c.id]]] as const) {
        const answer = answers?.[c.steps.length - 1];
        const value = answer?.ok ? chainValue(last.tool_name, last.output_key, answer.text) : undefined;
        if (!value?.ok || !sameGoldenValue(value.value, c.golden)) wrong.push(`${c.id} (${side}): ${JSON.stringify(value)} vs golden ${JSON.stringify(c.golden)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('no allowed difference is used that the allow-list does not give a reason for', () => {
    const reasons = outcomes.flatMap((o) => (o.verdict.kind === 'allowed' ? o.verdict.reasons : []));
    expect(reasons.filter((r) => !ALLOWED[r])).toEqual([]);
  });
});
