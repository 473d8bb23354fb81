import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { GatewayServer } from '../../../../harness/gateway/server.js';
import { loadLegs } from '../../../../tasks/aar/load.js';
import { runChain } from '../../../../tasks/aar/world/golden-calls.js';
import { synthesizeWorld } from '../../../../tasks/aar/world/synthesize.js';
import { ToolService } from '../../../../tools/service.js';
import { PER_LEG_DIR, ResponseStore } from '../../../../tools/store/store.js';
import { PAIR, writeConflictingLegs } from '../../../helpers/conflicting-legs.js';
import { CRAFTED_JOB, writeCraftedJob } from '../../../helpers/crafted-jobs.js';
import { tempDir } from '../../../helpers/data.js';
import { checkBudgets } from '../../../../verifier/compare/budgets.js';
import { loadConfigurations } from '../../../../verifier/compare/select.js';

/** The tool stop's golden chain of a loaded leg. */
const chainOf = (leg: { stops: Array<{ stop_type: string; bridge: { tool_chain: Parameters<typeof runChain>[0] } }> }) =>
  leg.stops.find((s) => s.stop_type === 'tool')!.bridge.tool_chain;

describe('a synthetic world for legs that disagree: per-leg answers, read by the leg over HTTP', () => {
  const tmp = tempDir('aar-world-per-leg-');
  const storeDir = path.join(tmp.dir, 'store');
  let gateway: GatewayServer;
  let url: string;
  afterAll(async () => {
    await gateway?.close();
    tmp.cleanup();
  });

  test('two legs, one call, two answers: the first is shared, the second leg gets its own, nothing is kept-first', async () => {
    const { legs, problems } = await loadLegs(writeConflictingLegs(path.join(tmp.dir, 'legs')));
    expect(problems).toEqual([]);
    expect(legs.map((l) => l.id)).toEqual([PAIR.a.id, PAIR.b.id]);
    const report = await synthesizeWorld(legs, new ResponseStore(storeDir));
    // The elevation (and the geocoding made up from each leg's value) differ: each a per-leg answer of sample_b.
    expect(report.conflicts.length).toBeGreaterThan(0);
    expect(report.conflicts.every((c) => c.startsWith(`${PAIR.b.id} stop 2: `))).toBe(true);
    expect(report.legEntries).toBe(report.conflicts.length);
    expect(report.merged).toEqual([]);
    expect(report.mergedLegs).toEqual([]);
    expect(report.keptFirst).toEqual([]);
    expect(readdirSync(path.join(storeDir, PER_LEG_DIR))).toEqual([encodeURIComponent(PAIR.b.id)]);
  });

  test('through the gateway each trial reads its own leg\'s answer; a trial of no leg, or of a leg without its own, the shared one', async () => {
    const { legs } = await loadLegs(path.join(tmp.dir, 'legs'));
    gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(storeDir) }) });
    url = await gateway.listenTcp();
    const lastAnswer = async (taskId: string | undefined): Promise<string> => {
      const { token } = gateway.trials.register({ trialId: `t-${taskId ?? 'none'}`, taskId, toolLogPath: path.join(tmp.dir, `log-${String(taskId).replace(/\//g, '_')}.jsonl`) });
      const texts = await runChain(chainOf(legs[0].leg), async (call) => {
        const res = await fetch(`${url}/v1/tools/call`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ tool: call.tool, args: call.args }),
        });
        const body = (await res.json()) as { ok: boolean; text: string };
        expect(body.ok).toBe(true);
        return body.text;
      });
      return texts.at(-1)!;
    };
    // sample_b first: its own answer must not be cached for the others, nor theirs for it.
    const b = await lastAnswer(PAIR.b.id);
    const a = await lastAnswer(PAIR.a.id);
    const none = await lastAnswer(undefined);
    const bAgain = await lastAnswer(PAIR.b.id);
    expect(b).toContain(String(PAIR.b.elevation));
    expect(b).not.toContain(String(PAIR.a.elevation));
    expect(a).toContain(String(PAIR.a.elevation));
    expect(none).toBe(a);
    expect(bAgain).toBe(b);
  });

  test('a per-leg entry names its leg; the same store without its per-leg folder (an old store) answers every leg the shared way', () => {
    const legDir = path.join(storeDir, PER_LEG_DIR, encodeURIComponent(PAIR.b.id));
    const ids = readdirSync(legDir).flatMap((tool) =>
      readdirSync(path.join(legDir, tool)).flatMap((prefix) => readdirSync(path.join(legDir, tool, prefix)).map((file) => ({ tool, key: path.basename(file, '.json'), args: '' }))),
    );
    expect(ids.length).toBeGreaterThan(0);
    const oldStore = path.join(tmp.dir, 'old-store');
    cpSync(storeDir, oldStore, { recursive: true, filter: (src) => !src.includes(`${path.sep}${PER_LEG_DIR}`) });
    const [store, old] = [new ResponseStore(storeDir), new ResponseStore(oldStore)];
    for (const id of ids) {
      expect(store.get(id, PAIR.b.id)?.leg).toBe(PAIR.b.id);
      expect(store.hasLegEntry(id, PAIR.b.id)).toBe(true);
      expect(store.hasLegEntry(id, PAIR.a.id)).toBe(false);
      expect(store.get(id, PAIR.a.id)).toEqual(store.get(id));
      expect(store.get(id)?.leg).toBeUndefined();
      expect(old.get(id, PAIR.b.id)).toEqual(store.get(id));
      expect(old.hasLegEntry(id, PAIR.b.id)).toBe(false);
    }
  });

  test('the store\'s fingerprint in the equal-budget check changes with a per-leg answer alone', async () => {
    const { legs } = await loadLegs(path.join(tmp.dir, 'legs'));
    const job = (name: string, store: string): string => {
      const dir = path.join(tmp.dir, name);
      writeCraftedJob(dir, legs, name, 1, () => ({ fa: 1 }), { job: { ...CRAFTED_JOB, tools: { mode: 'replay', store, output_limit: 8000 } } });
      return dir;
    };
    const world = (a: string, b: string) => checkBudgets(loadConfigurations([a, b])).differences.filter((d) => d.key.startsWith('tools world'));
    const withLegs = job('with-per-leg', storeDir);
    const withoutLegs = job('without-per-leg', path.join(tmp.dir, 'old-store'));
    expect(world(withLegs, job('with-per-leg-again', storeDir))).toEqual([]);
    const [difference] = world(withLegs, withoutLegs);
    expect(difference).toBeDefined();
    expect(new Set(Object.values(difference.values)).size).toBe(2);
  });
});

