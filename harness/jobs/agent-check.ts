import { InputError } from '../../tasks/problems.js';
import { agentAdapter } from '../agents/registry.js';
import type { LoadedConfig } from '../config/load.js';
import { needsNoProviderKeys } from '../gateway/local/spec.js';

/**
 * Before a job starts: each agent's own check, and the host keys its model traffic needs (none when the
 * job's models are the local model, which answers on the host). Every problem is reported at once, naming
 * the config file and `agents[i]`.
 */
export function checkAgents(loaded: LoadedConfig): void {
  const { config } = loaded;
  let localModel: boolean;
  try {
    localModel = needsNoProviderKeys(config);
  } catch (error) {
    throw new InputError([{ file: loaded.file, path: 'agents', message: (error as Error).message }]);
  }
  const problems = config.agents.flatMap((agent, i) => {
    try {
      const adapter = agentAdapter(agent.name);
      adapter.check?.(agent, { localModel });
      const missing = localModel ? [] : (adapter.hostKeys ?? []).filter((k) => !process.env[k]);
      if (missing.length) throw new Error(`${agent.name} needs ${missing.join(' and ')} in the host environment (it stays on the host; containers get a trial token)`);
      return [];
    } catch (error) {
      return [{ file: loaded.file, path: `agents[${i}]`, message: (error as Error).message }];
    }
  });
  if (problems.length) throw new InputError(problems);
}
