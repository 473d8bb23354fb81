/**
 * The random baseline's program, run inside the trial container (bundled into one file): prints its draw
 * and writes the digit the harness drew from the trial's seed as the passcode.
 *
 *   node aar-random.cjs SEED DIGIT     (or loaded by the trial runner into its own process: container/program.ts)
 */
import { writeFileSync } from 'node:fs';
import { startUnlessLoaded } from '../../container/program.js';

export async function main([seed, digit]: string[]): Promise<number> {
  console.log(`random agent: seed ${seed}, digit ${digit}`);
  writeFileSync('/app/answer.txt', digit ?? '');
  return 0;
}

startUnlessLoaded(main);
