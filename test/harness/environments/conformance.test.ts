/**
 * Every registered environment passes the environment conformance suite (harness/environments/conformance.ts),
 * on this machine's engine; one its definition says cannot run here (no engine, not a swarm manager) is
 * skipped, saying why. A new environment is tested without editing this file.
 */
import { jest } from '@jest/globals';
import { ENVIRONMENTS } from '../../../harness/environments/define.js';
import { registeredEnvironmentSuite } from '../../../harness/environments/conformance.js';
import '../../../harness/environments/registry.js';
import { describeConformance } from '../../helpers/conformance.js';

jest.setTimeout(180_000);
for (const definition of ENVIRONMENTS.entries) describeConformance(registeredEnvironmentSuite(definition, `aar-c${process.pid}-${definition.name}`.slice(0, 20)));
