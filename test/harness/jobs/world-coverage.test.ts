import { loadJobConfig } from '../../../harness/config/load.js';
import { runJob } from '../../../harness/jobs/job.js';
import { previewJob } from '../../../harness/plan/preview.js';
import { formatPreview } from '../../../harness/plan/text.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { filterLegs } from '../../../tasks/aar/filter.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { synthesizeWorld } from '../../../tasks/aar/world/synthesize.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { runAar } from '../../helpers/cli.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';

const NO_KEYS = { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', GOOGLE_API_KEY: '', SERPER_API_KEY: '' };

describeWithData('a stored world that cannot serve some legs says so before the run', () => {
  const tmp = tempDir('aar-world-coverage-');
  let store: string;
  let served: string[];
  beforeAll(async () => {
    const { legs } = await loadLegs([AAR_DATA_DIR]);
    const sample = filterLegs(legs, { sample: { n: 40, seed: 1 } });
    served = sample.map((l) => l.id);
    store = `${tmp.dir}/world-of-40`;
    await synthesizeWorld(sample, new ResponseStore(store));
  }, 120_000);
  afterAll(() => tmp.cleanup());

  const config = (name: string, seed: number, mode = 'replay') =>
    writeJobConfig(tmp.dir, { name, tasks: { path: AAR_DATA_DIR, sample: { n: 40, seed } }, tools: { mode, store } }, `${name}.yaml`);

  test('aar plan: the legs it serves pass; another sample is refused in replay, with the count and the legs named', async () => {
    const same = await previewJob(loadJobConfig(config('same', 1)), NO_KEYS);
    expect(same.world).toMatchObject({ mode: 'replay', refused: false, coverage: { tasks: 40, missing: [] } });
    expect(formatPreview(same)).toContain('answers every golden call of the 40 legs');

    const other = await previewJob(loadJobConfig(config('other', 2)), NO_KEYS);
    const missing = other.world!.coverage.missing;
    expect(other.world!.refused).toBe(true);
    expect(missing.length).toBeGreaterThan(30);
    // legs of the other sample that are not in the first (one whose calls other legs' answers cover is served)
    const { legs } = await loadLegs([AAR_DATA_DIR]);
    const otherIds = filterLegs(legs, { sample: { n: 40, seed: 2 } }).map((l) => l.id);
    const notServed = otherIds.filter((id) => !served.includes(id));
    expect(missing.map((m) => m.task).filter((id) => !notServed.includes(id))).toEqual([]);
    expect(missing.length).toBeGreaterThanOrEqual(notServed.length - 2);
    expect(missing[0].calls[0]).toMatch(/^(fetch_webpage|maps_|countries_|stock_|weather_|crypto_)\S* \{/);
    const text = formatPreview(other);
    expect(text).toContain(`cannot answer the golden calls of ${missing.length} legs of 40: refused`);
    expect(text).toContain(`  ${missing[0].task}: `);

    expect((await previewJob(loadJobConfig(config('other', 2)), NO_KEYS, { allowMissing: true })).world!.refused).toBe(false);
    // pinned: listed, not refused (what is missing is called live and recorded)
    const pinned = await previewJob(loadJobConfig(config('pinned', 2, 'pinned')), { ...NO_KEYS, GOOGLE_API_KEY: 'k', SERPER_API_KEY: 'k', OPENAI_API_KEY: 'k' });
    expect(pinned.world).toMatchObject({ mode: 'pinned', refused: false });
    expect(formatPreview(pinned)).toContain('their missing calls will be made live and recorded');
  }, 120_000);

  test('aar plan exits 1 saying why; aar run refuses before any trial unless --allow-missing', async () => {
    const file = config('cli', 2);
    const plan = runAar(['plan', file], { env: NO_KEYS });
    expect(plan.status).toBe(1);
    expect(plan.stderr).toMatch(/a run would be refused: the replay store cannot answer the golden calls of \d+ legs/);
    await expect(runJob({ configPath: file, reporter: new QuietReporter() })).rejects.toThrow(/tools\.store: .*has no answer to the golden calls of \d+ of 40 legs: .*--allow-missing/);
    expect(runAar(['plan', file, '--allow-missing'], { env: NO_KEYS }).status).toBe(0);
  }, 120_000);
});
