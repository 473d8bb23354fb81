/** The swarm probes live with the swarm environment (its conformance hooks use them too). */
export { leftovers, settledLeftovers, swarmManagerHere } from '../../../harness/environments/swarm/probe.js';
