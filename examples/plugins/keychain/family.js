import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'aar-harness';
import { loadTasks, walk } from './chain.js';
import { scoreToJson, scoreTrial } from './score.js';

const HOP = readFileSync(fileURLToPath(new URL('./hopper/context/hop.mjs', import.meta.url)), 'utf8');
const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
const pct = (v) => (v === null ? '–' : `${(100 * v).toFixed(1)}%`);

/**
 * Keychain: the agent starts at a key and asks the `keychain_get` tool for its value, which is the next key,
 * until a value starts with "="; that value (without the "=") is the answer. Decoy keys lead elsewhere. The
 * chain lives on the host (the trial's tool session), so the agent learns it only through the tool.
 *
 * @type {import('aar-harness').PluginFamily}
 */
export const keychainFamily = {
  name: 'keychain',
  examples: fileURLToPath(new URL('./tasks', import.meta.url)),
  load: async (paths) => loadTasks(paths),
  filterSchema: z.strictObject({ levels: z.array(z.string()).optional() }),
  filter: (tasks, filter) => tasks.filter((t) => !filter.levels || filter.levels.includes(t.level)).sort((a, b) => a.id.localeCompare(b.id)),
  describe: (t) => ({ id: t.id, file: t.file, set: t.set, level: t.level }),
  // Reports, compare and the HTML report's filters group by these two fields of describe().
  sliceKeys: ['set', 'level'],
  stepBudget: (t) => 2 * t.golden.keys.length + 2,
  renderInstruction: (t, { stepBudget }) =>
    [
      '# Keychain',
      '',
      `Start key: \`${t.start}\``,
      '',
      "Look a key up with `tools keychain_get '{\"key\": \"<key>\"}'`: its value is the next key to look up, until a value",
      'starts with `=`. Write that value, without the `=`, to `/app/answer.txt`.',
      '',
      `You have ${stepBudget} steps.`,
      '',
    ].join('\n'),
  tools: ['keychain_get'],
  toolSession: (t) => ({
    call(_tool, args) {
      const value = t.chain[args.key];
      return value === undefined ? { ok: false, text: `Error: no key '${args.key}'` } : { ok: true, text: value };
    },
  }),
  oracle: () => ({ files: [{ path: '/opt/keychain/hop.mjs', content: HOP }], command: ['node', '/opt/keychain/hop.mjs'] }),
  randomBaseline: (_t, seed) => ({ files: [], command: ['sh', '-c', `echo ${Math.abs(seed) % 10} > /app/answer.txt`] }),
  score: scoreTrial,
  scoreToJson,
  progress: { label: 'success', success: (s) => (s.success ? 1 : 0), verdict: (s) => (s.success ? 'found' : `wrong (${s.answer ?? 'no answer'}, expected ${s.expected})`) },
  report: {
    compareMetrics: [
      { name: 'success', binary: true, of: (s) => (s.success ? 1 : 0) },
      { name: 'visited', binary: false, of: (s) => s.visited },
    ],
    levelOrder: ['easy', 'hard'],
    summarize: (scores) => ({ success: mean(scores.map((s) => (s.success ? 1 : 0))), visited: mean(scores.map((s) => s.visited)) }),
    markdownHeader: ['success', 'visited'],
    markdownCells: (row) => [pct(row.success), pct(row.visited)],
    flatten: (row) => ({ success: row.success, visited: row.visited }),
  },
};

/** The golden answer of a task (for tests and the docs): the chain's value. */
export const goldenAnswer = (task) => walk(task).answer;
