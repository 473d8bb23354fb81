/** Every registered agent passes the agent conformance suite (harness/agents/conformance.ts); a new agent is tested without editing this file. */
import { AGENTS } from '../../../harness/agents/registry.js';
import { agentSuite } from '../../../harness/agents/conformance.js';
import { describeConformance } from '../../helpers/conformance.js';

for (const adapter of AGENTS.entries) describeConformance(agentSuite(adapter));
