import { readFileSync } from 'node:fs';
import { definePlugin, PLUGIN_API_VERSION, z } from 'aar-harness';
import { hopperAgent } from './agent.js';
import { csvExporter } from './export.js';
import { keychainFamily } from './family.js';

const { name, version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** The keychain_get tool: served on the host by the trial's tool session (the family's toolSession). */
const keychainGet = {
  name: 'keychain_get',
  group: 'keychain',
  summary: 'Look a key up in the keychain: its value is the next key, or the answer when it starts with "=".',
  returns: 'the value of the key, as text',
  args: () => z.object({ key: z.string().min(1).describe('the key to look up, exactly as given') }),
  example: { key: 'amber' },
  runsIn: 'gateway',
  provider: 'trial-session',
};

/** An AAR Harness plugin: one task family with its tool and verifier, an agent for it, and an export format. */
export default definePlugin({
  apiVersion: PLUGIN_API_VERSION,
  name,
  version,
  families: [keychainFamily],
  tools: [keychainGet],
  agents: [hopperAgent],
  exporters: [csvExporter],
});
