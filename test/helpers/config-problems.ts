import { parseJobConfig } from '../../harness/config/load.js';
import { InputError } from '../../tasks/problems.js';

/** The one-line problems a job config's text gives when parsed as `job.yaml`; none for a valid one. */
export function configProblems(text: string): string[] {
  try {
    parseJobConfig('job.yaml', text);
  } catch (error) {
    if (error instanceof InputError) return error.message.split('\n');
    throw error;
  }
  return [];
}
