import path from 'node:path';
import { loadLegs, type LoadedLeg } from '../../../../tasks/aar/load.js';
import { aarCharts } from '../../../../verifier/html/aar/charts.js';
import { renderChartSvg } from '../../../../verifier/html/charts.js';
import { loadJobResults } from '../../../../verifier/results.js';
import { writeCraftedJob } from '../../../helpers/crafted-jobs.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../../helpers/data.js';

describeWithData("the HTML report's AAR charts (crafted job on real legs)", () => {
  const tmp = tempDir('aar-html-charts-');
  let all: LoadedLeg[];
  beforeAll(async () => {
    all = (await loadLegs(AAR_DATA_DIR)).legs;
  });
  afterAll(() => tmp.cleanup());

  test("Figure 5a: FA, PVR and RCR over all legs, each variant weighted by its legs, drawn as SVG", async () => {
    const legs = [...all.filter((l) => l.variant === 'aar-linear').slice(0, 3), all.find((l) => l.variant === 'aar-dag')!];
    const job = path.join(tmp.dir, 'job');
    // Linear legs 0-2 with attempts (1, 1), (1, infra), (0, 0); the DAG leg (1, 0). PVR and RCR as FA.
    const fa = [[1, 1], [1, null], [0, 0], [1, 0]] as const;
    writeCraftedJob(job, legs, 'alpha', 2, (i, k) => (fa[i][k - 1] === null ? 'infra' : { fa: fa[i][k - 1] as 0 | 1 }));
    const charts = aarCharts(loadJobResults(job));
    const chart = charts.find((c) => c.title === 'All legs (Figure 5a)')!;
    const values = (chart.spec.data as { values: { agent: string; metric: string; weighted: number; legs: number }[] }).values;
    // Per leg first: linear (1 + 1 + 0) / 3, DAG 1/2, weighted by 3 and 1 legs: 0.625 (pooled over the 7 trials it would be 4/7).
    expect(values.map((v) => [v.agent, v.metric, v.legs])).toEqual([['alpha', 'FA', 4], ['alpha', 'PVR', 4], ['alpha', 'RCR', 4]]);
    for (const v of values) expect(v.weighted).toBeCloseTo(0.625, 12);
    expect(await renderChartSvg(chart, 0)).toMatch(/^<svg[\s\S]*mark-rect/);
  });
});
