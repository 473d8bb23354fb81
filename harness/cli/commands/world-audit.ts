import type { Command } from 'commander';
import { addFilterOptions, loadFilteredLegs as filteredLegs, type FilterFlags } from '../../../tasks/aar/cli-flags.js';

interface AuditFlags extends FilterFlags {
  store?: string;
  pinned?: boolean;
  endpoints?: string;
  concurrency: string;
  format: string;
  excludeOut?: string;
}

/** A YAML or JSON file's `tools.endpoints` (a job config or what `aar world serve` writes), or its top-level map. */
async function readEndpoints(file: string): Promise<Record<string, string>> {
  const { readFileSync } = await import('node:fs');
  const { parse } = await import('yaml');
  const { z } = await import('zod');
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const map = z.record(z.string(), z.string());
  const nested = z.object({ tools: z.object({ endpoints: map }) }).safeParse(raw);
  if (nested.success) return nested.data.tools.endpoints;
  const flat = map.safeParse(raw);
  if (flat.success) return flat.data;
  throw new Error(`${file}: tools.endpoints: expected a map of endpoint names to base URLs`);
}

/** Progress on stderr: a line every 2 s (the count, and the legs that did not hold so far). */
function progressLine(total: number) {
  let last = 0;
  const notHeld: Record<string, number> = {};
  return (done: number, status: string) => {
    if (status !== 'held') notHeld[status] = (notHeld[status] ?? 0) + 1;
    if (done !== total && Date.now() - last < 2000) return;
    last = Date.now();
    const tally = Object.entries(notHeld).map(([s, n]) => `${n} ${s}`).join(', ');
    process.stderr.write(`audited ${done}/${total} legs (${Math.round((100 * done) / total)}%)${tally ? `: ${tally}` : ''}\n`);
  };
}

export function registerWorldAuditCommands(world: Command): void {
  registerAuditCommand(world);
  registerServeCommand(world);
}

/** The world an audit checks (its flags checked), and how many legs at a time. */
function auditWorld(live: string | undefined, flags: AuditFlags): { mode: 'live' | 'replay' | 'pinned'; concurrency: number } {
  if (live !== undefined && live !== 'live') throw new Error(`world audit: the second argument is "live" or nothing, not ${JSON.stringify(live)}`);
  if (!flags.store && live !== 'live') throw new Error('world audit: say which world: --store DIR, or live');
  if (flags.store && live === 'live' && !flags.pinned) throw new Error('world audit: --store DIR or live, not both (--store DIR --pinned calls live what the store lacks)');
  if (flags.format !== 'md' && flags.format !== 'json') throw new Error(`--format: md or json, not ${flags.format}`);
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency: a positive whole number, not ${flags.concurrency}`);
  return { mode: flags.store ? (flags.pinned ? 'pinned' : 'replay') : 'live', concurrency };
}

/** The tool service the audit calls: the store (replay), the providers (live), or both (pinned, recording what the store lacks). */
async function auditToolService(mode: 'live' | 'replay' | 'pinned', flags: AuditFlags, legs: Awaited<ReturnType<typeof filteredLegs>>) {
  const { existsSync } = await import('node:fs');
  const { ToolService } = await import('../../../tools/service.js');
  const { ResponseStore } = await import('../../../tools/store/store.js');
  const { createProviderContext, missingToolKeys } = await import('../../../tools/providers/registry.js');
  const { HARNESS_VERSION } = await import('../../version.js');
  if (mode === 'replay' && !existsSync(flags.store!)) throw new Error(`${flags.store}: no such store folder`);
  const providers = mode === 'replay' ? undefined : createProviderContext({ endpoints: flags.endpoints ? await readEndpoints(flags.endpoints) : {} });
  if (providers) {
    const used = [...new Set(legs.flatMap((l) => l.leg.stops.flatMap((s) => s.bridge.tool_chain.map((c) => c.tool_name))))];
    for (const m of missingToolKeys(used)) process.stderr.write(`warning: ${m.variable} is not set: calls of ${m.tools.join(', ')} will fail\n`);
  }
  const recorder = providers && mode === 'pinned' ? { harnessVersion: HARNESS_VERSION, mode: 'pinned' as const, endpoints: { ...providers.endpoints } } : undefined;
  return new ToolService({
    mode,
    // The audit reads values out of whole answers: the gateway's cut for agents does not apply.
    outputLimit: 100_000_000,
    ...(flags.store ? { store: new ResponseStore(flags.store, { recorder }) } : {}),
    ...(providers ? { providers } : {}),
  });
}

/** `aar world audit`. */
function registerAuditCommand(world: Command): void {
  addFilterOptions(
    world
      .command('audit')
      .argument('<legs>', 'leg file or folder')
      .argument('[live]', '"live": call the real services (keys from the host environment; --endpoints to point elsewhere)'),
  )
    .option('--store <dir>', 'the world to audit: a store (replayed; with --pinned, calls it lacks are made live and recorded)')
    .option('--pinned', 'with --store: pinned mode')
    .option('--endpoints <file>', "live and pinned: the tools' base URLs (a YAML or JSON map, or a job config's tools.endpoints; aar world serve writes one)")
    .option('--concurrency <n>', 'legs audited at a time', '8')
    .option('--format <format>', 'md or json', 'md')
    .option('--exclude-out <file>', 'write the legs whose passcode does not hold (changed, or a call failed) as a YAML list for tasks.exclude')
    .description("re-run every leg's golden tool chains through the tool service and say, per leg, whether today's answers still give its golden values and passcode: held, value drifted (passcode held), passcode changed, or a call failed; per tool and per level")
    .action(async (legsPath: string, live: string | undefined, flags: AuditFlags) => {
      const { mode, concurrency } = auditWorld(live, flags);
      const { writeFileSync } = await import('node:fs');
      const { auditLegs, formatAudit, notHolding } = await import('../../../tasks/aar/world/audit.js');
      const legs = await filteredLegs(legsPath, flags);
      const service = await auditToolService(mode, flags, legs);
      const world = flags.store ? `${mode} ${flags.store}` : `live${flags.endpoints ? ` (endpoints of ${flags.endpoints})` : ''}`;
      const progress = progressLine(legs.length);
      const report = await auditLegs(legs, (tool, args, leg) => service.call(tool, args, undefined, leg), { concurrency, progress: (done, leg) => progress(done, leg.status) });
      const exclude = notHolding(report);
      if (flags.excludeOut) {
        const lines = [`# legs whose golden passcode does not hold in ${world} (aar world audit, ${new Date().toISOString()}): use as tasks.exclude`, 'exclude:', ...exclude.map((id) => `  - ${id}`)];
        writeFileSync(flags.excludeOut, `${lines.join('\n')}${exclude.length ? '' : ' []'}\n`);
      }
      if (flags.format === 'json') process.stdout.write(JSON.stringify({ world, ...report, exclude }, null, 2) + '\n');
      else process.stdout.write(formatAudit(report, world) + '\n');
    });
}

/** `aar world serve`: the stand-in upstream on loopback. */
function registerServeCommand(world: Command): void {
  addFilterOptions(world.command('serve').argument('<legs>', 'leg file or folder'))
    .option('--port <n>', 'port on 127.0.0.1 (default: any free one)', '0')
    .option('--drift <file>', 'JSON list of changed facts: {"stop": "<leg id>#<stop index>", "value": ...} (the fact that stop reads) or {"key": ..., "value": ...}')
    .option('--log <file>', 'append every request to this file (JSON lines)')
    .option('--endpoints-out <file>', 'write the tools.endpoints of this stand-in (YAML) for a job config or aar world audit --endpoints')
    .description("a stand-in upstream on loopback answering the tools' calls (Google Maps, Serper, Open-Meteo, REST Countries, Yahoo Finance, Binance, Wikipedia, an OpenAI-style code model) in the real APIs' shapes, each leg's golden chain with its golden value: to try live, record or pinned modes and the audit with no network; runs until interrupted")
    .action(async (legsPath: string, flags: FilterFlags & { port: string; drift?: string; log?: string; endpointsOut?: string }) => {
      const { readFileSync, writeFileSync } = await import('node:fs');
      const { z } = await import('zod');
      const { stringify } = await import('yaml');
      const { applyDrift, collectFacts } = await import('../../../tasks/aar/world/upstream/facts.js');
      const { StandInUpstream } = await import('../../../tasks/aar/world/upstream/server.js');
      const legs = await filteredLegs(legsPath, flags);
      const facts = await collectFacts(legs);
      if (flags.drift) {
        const Drift = z.array(z.object({ stop: z.string().optional(), key: z.string().optional(), value: z.union([z.number(), z.record(z.string(), z.any())]) }));
        let raw: unknown;
        try {
          raw = JSON.parse(readFileSync(flags.drift, 'utf8'));
        } catch (error) {
          throw new Error(`${flags.drift}: ${(error as Error).message}`);
        }
        const parsed = Drift.safeParse(raw);
        if (!parsed.success) throw new Error(`${flags.drift}: ${parsed.error.issues[0].path.join('.') || '(top)'}: ${parsed.error.issues[0].message}`);
        const keys = applyDrift(facts, parsed.data);
        process.stderr.write(`drifted ${keys.length} facts: ${keys.join('; ')}\n`);
      }
      const server = await new StandInUpstream(facts, { logFile: flags.log }).start(Number(flags.port));
      if (flags.endpointsOut) writeFileSync(flags.endpointsOut, `# the stand-in upstream of aar world serve at ${server.url} (pid ${process.pid})\n${stringify({ tools: { endpoints: server.endpoints } })}`);
      process.stdout.write(`stand-in upstream for ${legs.length} legs at ${server.url} (${facts.values.size} facts, ${facts.pages.size} pages, ${facts.conflicts.length} facts legs disagree on); tools.endpoints:\n`);
      for (const [name, url] of Object.entries(server.endpoints)) process.stdout.write(`  ${name}: ${url}\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.stop();
      process.stderr.write(`stand-in upstream stopped after ${server.requests.length} requests\n`);
    });
}
