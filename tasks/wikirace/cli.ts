import type { Command } from 'commander';
import type { CliServices, FamilyCli } from '../family.js';

const TABLES = ['page', 'pagelinks', 'linktarget', 'redirect'] as const;

function integer(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new Error(`${name}: want a whole number, got ${JSON.stringify(value)}`);
    return Number(value);
  };
}

/** The four table dumps in `dir`, by Wikipedia's names (enwiki-20250620-page.sql.gz and so on). */
async function findDumps(dir: string): Promise<Record<(typeof TABLES)[number], string> & { prefix: string }> {
  const { readdir } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${dir}: cannot read the dump folder (${error.code ?? error.message})`);
  });
  const found = {} as Record<(typeof TABLES)[number], string> & { prefix: string };
  for (const table of TABLES) {
    const name = names.find((n) => new RegExp(`(^|-)${table}\\.sql(\\.gz)?$`).test(n));
    if (!name) throw new Error(`${dir}: no dump of table ${table} (want a file named like enwiki-20250620-${table}.sql.gz)`);
    found[table] = join(dir, name);
    found.prefix ??= name.replace(new RegExp(`-?${table}\\.sql(\\.gz)?$`), '');
  }
  return found;
}

/** `aar wikirace ...`: the link graph, its pairs, the world-knowledge probe (through the harness's model gateway, lent by `services`). */
export const wikiraceCli: FamilyCli = { program: registerWikiraceCommands };

function registerWikiraceCommands(program: Command, services: CliServices): void {
  const wikirace = program.command('wikirace').description('LLM-WikiRace: the link graph, its source/target pairs, the world-knowledge probe');
  registerGraphCommands(wikirace.command('graph').description('build and inspect link-graph folders'));
  registerPairsCommand(wikirace);
  registerProbeCommand(wikirace, services);
}

/** `aar wikirace graph build|synthesize|info`. */
function registerGraphCommands(graph: Command): void {
  graph
    .command('build')
    .description('build a graph folder from Wikipedia SQL dumps (page, pagelinks, linktarget, redirect) or a TSV edge list; keeps the largest strongly connected component')
    .requiredOption('--out <folder>', 'the graph folder to write')
    .option('--dumps <folder>', 'a folder holding the four table dumps (*-page.sql.gz, *-pagelinks.sql.gz, *-linktarget.sql.gz, *-redirect.sql.gz)')
    .option('--edges <file>', 'a TSV edge list instead: one link per line, from title<TAB>to title (.gz allowed)')
    .option('--source <text>', 'where the links came from, for graph.json (default: the dump name or the edge file)')
    .action(async (options: { out: string; dumps?: string; edges?: string; source?: string }) => {
      if (!options.dumps === !options.edges) throw new Error('wikirace graph build: give exactly one of --dumps <folder> and --edges <file>');
      const { writeGraphFolder } = await import('./graph/store.js');
      const started = performance.now();
      const say = (line: string): void => void process.stdout.write(`${line}\n`);
      let built;
      let source: string;
      if (options.dumps) {
        const { buildFromDumps } = await import('./graph/build-dump.js');
        const files = await findDumps(options.dumps);
        source = options.source ?? `Wikipedia SQL dumps ${files.prefix || options.dumps} (page, pagelinks, linktarget, redirect)`;
        built = await buildFromDumps(files, (line) => say(`  ${line}`));
        const s = built.stats;
        say(`pages ${s.pages} (main namespace, not redirects), redirects ${s.redirects}, links ${s.links} (${s.linksThroughRedirects} resolved through redirects, ${s.linksDropped} dropped)`);
      } else {
        const { buildFromEdgeList } = await import('./graph/build-edge-list.js');
        source = options.source ?? `edge list ${options.edges}`;
        built = await buildFromEdgeList(options.edges!);
        say(`pages ${built.stats.pages}, links ${built.stats.links}`);
      }
      const header = await writeGraphFolder(options.out, built.graph, { source, synthetic: false });
      say(`largest strongly connected component: ${header.pages} pages, ${header.links} links -> ${options.out} (sha256 ${header.sha256.slice(0, 12)}…, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    });

  graph
    .command('synthesize')
    .description('write a deterministic synthetic graph folder (marked synthetic): the example graph, or one at the paper\'s scale')
    .requiredOption('--out <folder>', 'the graph folder to write')
    .option('--preset <name>', 'example (1,500 pages) or paper (549,232 pages, about 15.1 million links)', 'example')
    .option('--pages <n>', 'override the number of pages', integer('--pages'))
    .option('--seed <n>', 'override the seed', integer('--seed'))
    .action(async (options: { out: string; preset: string; pages?: number; seed?: number }) => {
      const { EXAMPLE_GRAPH, PAPER_SCALE_GRAPH, syntheticGraph, syntheticSource } = await import('./graph/synthetic.js');
      const { writeGraphFolder } = await import('./graph/store.js');
      const base = { example: EXAMPLE_GRAPH, paper: PAPER_SCALE_GRAPH }[options.preset];
      if (!base) throw new Error(`--preset: want example or paper, got ${JSON.stringify(options.preset)}`);
      const shape = { ...base, ...(options.pages !== undefined && { pages: options.pages }), ...(options.seed !== undefined && { seed: options.seed }) };
      const header = await writeGraphFolder(options.out, syntheticGraph(shape), { source: syntheticSource(shape), synthetic: true });
      process.stdout.write(`synthetic graph: ${header.pages} pages, ${header.links} links -> ${options.out}\n`);
    });

  graph
    .command('info')
    .argument('<folder>', 'a graph folder')
    .description('read a graph folder (checking counts and checksum) and print its header')
    .action(async (folder: string) => {
      const { readGraphFolder } = await import('./graph/store.js');
      const { header } = await readGraphFolder(folder);
      process.stdout.write(`${JSON.stringify(header, null, 2)}\n`);
    });
}

/** `aar wikirace pairs`: seeded source/target pairs as task files. */
function registerPairsCommand(wikirace: Command): void {
  wikirace
    .command('pairs')
    .argument('<graph>', 'a graph folder')
    .description("write seeded source/target pairs by shortest-path length as task files <out>/<split>/<id>.json (the paper's splits by default)")
    .requiredOption('--out <folder>', 'the task folder to write into')
    .option('--seed <n>', 'the seed of the draw', integer('--seed'), 1)
    .option('--splits <counts>', 'pairs per split, e.g. easy=6,medium=6,hard=6 (lengths stay the paper\'s: 3-4, 5-6, 7-8)', 'easy=200,medium=150,hard=100')
    .option('--max-moves <n>', "the game's move limit written into each task file (default: none written, the game's 30)", integer('--max-moves'))
    .option('--max-links <n>', 'links a step offers at most, written into each task file (default: none written, 50; the paper also tries 30 and 70)', integer('--max-links'))
    .action(async (graphFolder: string, options: { out: string; seed: number; splits: string; maxMoves?: number; maxLinks?: number }) => {
      const { readGraphFolder } = await import('./graph/store.js');
      const { generatePairs, pairCountsText, parseSplitCounts, writePairFiles } = await import('./graph/pairs.js');
      const splits = parseSplitCounts(options.splits);
      const { graph: loaded, header } = await readGraphFolder(graphFolder);
      const started = Date.now();
      let shown = started;
      const pairs = generatePairs(loaded, splits, options.seed, {
        onProgress: (p) => {
          if (Date.now() - shown < 2000) return;
          shown = Date.now();
          process.stderr.write(`pairs: ${p.sources} sources searched in ${((Date.now() - started) / 1000).toFixed(0)} s; found per length ${pairCountsText(p)}\n`);
        },
      });
      const settings = { ...(options.maxMoves !== undefined && { max_moves: options.maxMoves }), ...(options.maxLinks !== undefined && { max_links: options.maxLinks }) };
      const files = await writePairFiles(options.out, pairs, loaded, graphFolder, header, settings);
      const counts = splits.map((s) => `${s.name} ${pairs.filter((p) => p.split === s.name).length}`).join(', ');
      const sources = new Set(pairs.map((p) => p.source)).size;
      process.stdout.write(`${files.length} pairs (${counts}) from ${sources} distinct sources in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${options.out}\n`);
    });
}

/** `aar wikirace probe`: the paper's world-knowledge probe through the lent model gateway. */
function registerProbeCommand(wikirace: Command, services: CliServices): void {
  wikirace
    .command('probe')
    .argument('<graph>', 'a graph folder')
    .description("the paper's world-knowledge probe (appendix C): a seeded balanced set of linked / not linked page pairs asked of a model through the model gateway; prints precision, recall and F1")
    .requiredOption('--model <name>', 'the model to ask')
    .requiredOption('--out <folder>', 'where probe.jsonl, model_log.jsonl and summary.json go; JOB/probes/NAME joins the probe with that job\'s configurations of the same model (Figure 1 of compare --paper and the report)')
    .option('--api <api>', 'anthropic (Messages) or openai (Chat Completions)', 'anthropic')
    .option('--pairs <n>', "pairs per class, as the paper (200): linked, distance 2, 3, 4 and reversed, so 1 linked to 4 not", integer('--pairs'), 200)
    .option('--seed <n>', 'the seed of the draw', integer('--seed'), 1)
    .option('--concurrency <n>', 'questions in flight at once', integer('--concurrency'), 4)
    .option('--config <file>', "a job config whose models: section (base URLs, attempts, timeout, prices) the gateway uses")
    .option('--base-url <url>', "the provider's upstream base URL (Anthropic without /v1, OpenAI with /v1), instead of the config's")
    .action(async (graphFolder: string, options: { model: string; out: string; api: string; pairs: number; seed: number; concurrency: number; config?: string; baseUrl?: string }) => {
      if (options.api !== 'anthropic' && options.api !== 'openai') throw new Error(`--api: want anthropic or openai, got ${JSON.stringify(options.api)}`);
      const { readGraphFolder } = await import('./graph/store.js');
      const { probePairs } = await import('./graph/probe.js');
      const { runProbe } = await import('./probe-run.js');
      const { graph, header } = await readGraphFolder(graphFolder);
      const pairs = probePairs(graph, options.pairs, options.seed);
      const gateway = await services.startModelGateway({ config: options.config, api: options.api, baseUrl: options.baseUrl, out: options.out, name: 'wikirace-probe' });
      const drawn = { graph: graphFolder, graphSha256: header.sha256, pairsPerClass: options.pairs, seed: options.seed };
      const s = await runProbe({ graph, pairs, model: options.model, api: options.api, gateway, out: options.out, concurrency: options.concurrency, drawn });
      const f = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(3));
      const lines = [
        `probe of ${options.model}: ${s.asked} pairs (${options.pairs} linked, ${4 * options.pairs} not), ${s.unparsed} replies without \\boxed{yes|no} and ${s.failed} failed requests left out`,
        `precision ${f(s.precision)}  recall ${f(s.recall)}  F1 ${f(s.f1)}  (TP ${s.truePositive}, FP ${s.falsePositive}, TN ${s.trueNegative}, FN ${s.falseNegative})`,
        `right by class: ${Object.entries(s.accuracyByClass).map(([k, v]) => `${k} ${f(v)}`).join(', ')}`,
        `linked against each class: ${Object.entries(s.versusClass).map(([k, v]) => `${k} P ${f(v.precision)} R ${f(v.recall)} F1 ${f(v.f1)}`).join('; ')}`,
        `model turns ${s.turns}, tokens in ${s.inputTokens} out ${s.outputTokens}, cost $${s.costUsd.toFixed(4)} -> ${options.out}`,
      ];
      process.stdout.write(lines.join('\n') + '\n');
    });
}
