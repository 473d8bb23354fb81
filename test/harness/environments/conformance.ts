/**
 * The environment conformance suite for Jest (harness/environments/conformance.ts is the suite itself, library
 * code that `aar plugins check` runs too). environmentConformance keeps the signature the environment tests
 * have always called; conformance.test.ts runs the suite for every registered environment.
 */
import type { EnvironmentProvider, TrialWorkResult } from '../../../harness/environments/types.js';
import { checkFilesInOut, environmentSuite, type ConformanceOptions } from '../../../harness/environments/conformance.js';
import { describeConformance } from '../../helpers/conformance.js';

export { filesInOutWork, sandboxSpec, work, type ConformanceOptions } from '../../../harness/environments/conformance.js';

export function environmentConformance(name: string, provider: () => EnvironmentProvider, options: ConformanceOptions): void {
  describeConformance(environmentSuite(name, provider, options));
}

/** What filesInOutWork gives back, stdout aside. */
export function expectFilesInOut(result: TrialWorkResult): void {
  checkFilesInOut(result);
}
