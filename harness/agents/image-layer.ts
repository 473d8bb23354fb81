import type { ImageLayer } from '../../images/build.js';
import { packagePath } from '../../paths.js';

/** A built-in agent's image layer: harness/agents/<name>/Dockerfile, beside its adapter, with nothing else in its build context. */
export const builtInLayer = (name: string): ImageLayer => ({ name, dockerfile: packagePath('harness', 'agents', name, 'Dockerfile') });
