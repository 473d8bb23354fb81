/** `aar verify --layout harbor DIR`: re-scores Harbor-layout trial folders and prints where reward.json differs. */
export async function printHarborVerify(dir: string): Promise<void> {
  const { verifyHarborDir } = await import('../../../tasks/aar/harbor/layout.js');
  const s = verifyHarborDir(dir);
  if (!s.trials && !s.failures.length) throw new Error(`${dir}: no Harbor trial folder (none below holds tests/trail.json)`);
  const out = (line: string): boolean => process.stdout.write(line + '\n');
  for (const f of s.failures) process.stderr.write(f + '\n');
  out(
    `${s.trials} Harbor trial folders: ${s.withReward} with verifier/reward.json, ${s.matching} match our reference-compatible fields, ${s.differing.length} differ` +
      (s.failures.length ? `, ${s.failures.length} unreadable` : ''),
  );
  const show = (v: unknown): string => JSON.stringify(v ?? null);
  for (const check of s.differing) {
    out(`  ${check.dir}:`);
    for (const d of check.differences!) out(`    ${d.field}: ours ${show(d.ours)}, reward.json ${show(d.stored)}`);
  }
  for (const check of s.expectedMismatches) out(`  ${check.dir}: ${check.expectedMismatch}`);
  if (s.differing.length || s.failures.length) process.exitCode = 1;
}
