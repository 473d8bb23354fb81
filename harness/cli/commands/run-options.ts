import type { Command } from 'commander';
import type { AgentFlag, RunFlags } from '../../config/flags.js';
import { AGENT_NAMES } from '../../agents/registry.js';
import { addFilterOptions } from '../../../tasks/aar/cli-flags.js';

/** The YAML `aar run` reads when given neither a file nor flags that make a config. */
export const DEFAULT_CONFIG = 'configs/default.yaml';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * Adds the config flags shared by `aar run` and `aar plan`. `--model` belongs to the `--agent` before it,
 * so both go into one list in the order they were given.
 */
export function addConfigFlags(cmd: Command): Command {
  const agents: AgentFlag[] = [];
  return addFilterOptions(cmd)
    .option('--agent <name>', `an agent (repeatable; replaces the config's agents): ${AGENT_NAMES.join(', ')}`, (name: string) => {
      agents.push({ name });
      return agents;
    })
    .option('--model <model>', 'the model of the --agent before it', (model: string) => {
      const last = agents.at(-1);
      if (!last) throw new Error('--model must follow the --agent it belongs to');
      if (last.model) throw new Error(`--model given twice for --agent ${last.name}`);
      last.model = model;
      return model;
    })
    .option('--path <path>', 'leg files or folders (repeatable; relative to the working directory)', collect)
    .option('--dataset <name>', 'a released task set fetched by `aar data fetch` (instead of --path): aar')
    .option('--attempts <n>', 'attempts per agent and leg')
    .option('--concurrency <n>', 'trials at a time (default: auto, as many as the cores and memory hold at --cpus and --memory each)')
    .option('--memory <size>', 'memory limit of each trial container: megabytes, or with g gigabytes (4096, 4g)')
    .option('--cpus <n>', 'CPUs of each trial container (may be a fraction: 0.5)')
    .option('--timeout <s>', 'wall-clock limit of one agent run, in seconds')
    .option('--tools-mode <mode>', 'live (call the tools\' providers), record (call them and store every response in --tools-store), replay (stored responses only) or pinned (stored when there, else called and stored)')
    .option('--tools-store <dir>', 'the record/replay store folder')
    .option('--name <name>', 'the job\'s folder name under --jobs-dir (the config\'s name)')
    .option('--jobs-dir <dir>', 'where job folders go (the config\'s output)');
}

/** Commander's parsed options, as RunFlags. */
export function runFlagsOf(options: Record<string, unknown>): RunFlags {
  const { agent, model: _m, ...rest } = options;
  return { ...(rest as RunFlags), agents: agent as AgentFlag[] | undefined };
}

/**
 * The job config of a command line: the file with the flags over it; without a file, the flags alone when
 * they name agents or legs, else configs/default.yaml with the flags over it.
 */
export async function loadConfigOf(configPath: string | undefined, options: Record<string, unknown>) {
  const { runFlagOverrides } = await import('../../config/flags.js');
  const { configFromFlags, loadJobConfig } = await import('../../config/load.js');
  const flags = runFlagsOf(options);
  if (configPath === undefined && (flags.agents?.length || flags.path?.length || flags.dataset)) return configFromFlags(runFlagOverrides(flags, { withFile: false }));
  return loadJobConfig(configPath ?? DEFAULT_CONFIG, runFlagOverrides(flags, { withFile: true }));
}
