import type { z as Zod } from 'zod';

/**
 * How a job reaches its swarm (`swarm:` in the job config). Built with the zod the config schema passes in,
 * so naming the environments (the CLI's help) loads no zod.
 */
export const swarmSettingsSchema = (z: typeof Zod) =>
  z.strictObject({
    registry: z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d+)?(\/[a-z0-9._/-]+)?$/, 'a registry address such as 127.0.0.1:5000')
      .optional()
      .describe('A registry every node can pull from (`host:port`); images are pushed there under their content-hash tags.'),
    node_engines: z
      .record(z.string(), z.string().regex(/^(unix|tcp):\/\//, 'unix:///path or tcp://host:port'))
      .default({})
      .describe('Without a registry: node hostname -> its engine (`unix:///path` or `tcp://host:port`), to `docker save | docker load` images into.'),
    node_down_grace_s: z
      .number()
      .nonnegative()
      .default(0)
      .describe('Seconds a node may stay down before its trials count as lost (infrastructure errors, run again elsewhere).'),
    name_prefix: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,20}$/, 'lower-case letters, digits and -, at most 21')
      .default('aar-')
      .describe('Prefix of the services and networks the job creates.'),
  });
export type SwarmSettings = Zod.infer<ReturnType<typeof swarmSettingsSchema>>;

export const DEFAULT_SWARM_SETTINGS: SwarmSettings = { node_engines: {}, node_down_grace_s: 0, name_prefix: 'aar-' };
