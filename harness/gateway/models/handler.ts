import type { JobConfig } from '../../config/schema.js';
import type { ModelHandler } from '../server.js';

/** The model gateway for a job's agents; none of the built-in agents talks to a model. */
export function modelHandlerFor(_config: JobConfig): ModelHandler | undefined {
  return undefined;
}
