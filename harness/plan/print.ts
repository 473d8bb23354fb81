import type { LoadedConfig } from '../config/load.js';
import { colourOn } from '../jobs/colour.js';
import { previewJob } from './preview.js';
import { formatPreview } from './text.js';

/** `aar plan` and `aar run --dry-run`: the plan as text or as the library's JobPreview in JSON; a plan that would be refused exits non-zero. */
export async function printPlan(loaded: LoadedConfig, format: 'text' | 'json', allowMissing = false): Promise<void> {
  const preview = await previewJob(loaded, process.env, { allowMissing });
  if (format === 'json') process.stdout.write(JSON.stringify(preview, null, 2) + '\n');
  else process.stdout.write(formatPreview(preview, colourOn(process.stdout)));
  if (preview.refusal.length) {
    process.stderr.write(`aar: ${preview.jobDir}: a run would be refused (${preview.refusal.length} ${preview.refusal.length === 1 ? 'difference' : 'differences'} from its trials, listed under refused)\n`);
    process.exitCode = 1;
  }
  if (preview.world?.refused) {
    process.stderr.write(`aar: a run would be refused: the replay store cannot answer the golden calls of ${preview.world.coverage.missing.length} legs (listed under world; --allow-missing runs them anyway)\n`);
    process.exitCode = 1;
  }
}
