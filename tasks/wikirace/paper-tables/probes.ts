import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Where a job keeps the probes it is joined with: `<job>/probes/<name>/summary.json` (`aar wikirace probe --out JOB/probes/NAME`). */
export const PROBES_DIR = 'probes';

/** What the join reads of a probe's summary.json (tasks/wikirace/probe-run.ts writes it); other fields are kept out. */
export const ProbeSummarySchema = z.looseObject({
  model: z.string().min(1),
  /** The graph the probe's pairs were drawn from; absent in summaries written before the field (then not checked). */
  graph_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  f1: z.number().nullable(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  asked: z.number().int(),
  unparsed: z.number().int(),
  failed: z.number().int().default(0),
});

export interface JoinedProbe {
  /** The probe's folder, as found. */
  dir: string;
  summary: z.infer<typeof ProbeSummarySchema>;
}

/**
 * The probes under each job folder's probes/ (one folder each, with its summary.json; a link to a probe
 * made elsewhere works too), and one line per summary that cannot be read, naming the file and the field.
 */
export function findProbes(jobDirs: readonly string[]): { probes: JoinedProbe[]; problems: string[] } {
  const probes: JoinedProbe[] = [];
  const problems: string[] = [];
  for (const jobDir of new Set(jobDirs.map((d) => path.resolve(d)))) {
    const root = path.join(jobDir, PROBES_DIR);
    if (!existsSync(root) || !statSync(root).isDirectory()) continue;
    for (const name of readdirSync(root).sort()) {
      const file = path.join(root, name, 'summary.json');
      if (!existsSync(file)) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        problems.push(`${file}: ${(error as Error).message}`);
        continue;
      }
      const parsed = ProbeSummarySchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        problems.push(`${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
        continue;
      }
      probes.push({ dir: path.join(root, name), summary: parsed.data });
    }
  }
  return { probes, problems };
}

/**
 * The probe of a configuration: the one whose model is the configuration's and whose graph is the games'
 * (by checksum, when the summary records one). None when the configuration has no model or no probe
 * matches; a problem when several do (which one was meant cannot be told).
 */
export function probeOf(probes: readonly JoinedProbe[], model: string | null, graphSha256: ReadonlySet<string>): { probe?: JoinedProbe; problem?: string } {
  if (model === null) return {};
  const matches = probes.filter((p) => p.summary.model === model && (p.summary.graph_sha256 === undefined || graphSha256.has(p.summary.graph_sha256)));
  if (matches.length > 1) return { problem: `${matches.length} probes of ${model} on this graph (${matches.map((m) => m.dir).join(', ')}): none joined; keep one` };
  return matches.length ? { probe: matches[0] } : {};
}
