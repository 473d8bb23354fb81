import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/**
 * `hopper`: follows the chain through the `tools` command (hopper/context/hop.mjs), in an image layer of its
 * own (hopper/Dockerfile, beside this adapter). `options.max_hops` stops it early: a weaker configuration to
 * compare against.
 *
 * @type {import('aar-harness').AgentAdapter}
 */
export const hopperAgent = {
  name: 'hopper',
  families: ['keychain'],
  imageLayer: { name: 'keychain-hopper', dockerfile: here('./hopper/Dockerfile'), context: here('./hopper/context') },
  usesModel: false,
  check(agent) {
    const max = agent.options.max_hops;
    if (max !== undefined && !(Number.isInteger(max) && max > 0)) throw new Error(`agent ${agent.id ?? 'hopper'}: options.max_hops must be a positive whole number`);
  },
  launch: (ctx) => ({ files: [], command: ['node', '/opt/hopper/hop.mjs'], env: { HOPPER_MAX_HOPS: String(ctx.agent.options.max_hops ?? 100) }, logDirs: [] }),
};
