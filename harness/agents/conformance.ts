/**
 * The agent conformance suite: what every agent adapter (the built-ins, the frameworks, a plugin's) must
 * give the trial runner, checked without Docker: its name, the families it plays, its image layer (the
 * Dockerfile beside it, built FROM the base image), a launch for an example task of each family it plays, and
 * log reading that never throws. Library code: Jest runs it for every registered agent, `aar plugins check`
 * for a plugin's.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceSuite } from '../../common/conformance.js';
import { FAMILIES, loadWholeFamilies, wholeFamily } from '../../tasks/families.js';
import { AgentConfigSchema, type AgentConfig } from '../config/schema.js';
import type { AgentAdapter, AgentContext } from './types.js';

const NAME = /^[a-z][a-z0-9-]*$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** The families an agent plays, by name (all registered ones for `any`). */
const familiesOf = (adapter: AgentAdapter): string[] => (adapter.families === 'any' ? [...FAMILIES.names] : [...adapter.families]);

/** The agent's configuration for the suite: its own example, else its name alone. */
const exampleConfig = (adapter: AgentAdapter): AgentConfig => AgentConfigSchema.parse({ ...adapter.example, name: adapter.name });

export function agentSuite(adapter: AgentAdapter): ConformanceSuite {
  let logDir = '';
  return {
    seam: 'agent',
    entry: adapter.name,
    async before() {
      logDir = mkdtempSync(path.join(os.tmpdir(), 'aar-agent-conf-'));
    },
    async after() {
      if (logDir) rmSync(logDir, { recursive: true, force: true });
    },
    checks: [
      {
        name: 'its name is lower-case letters, digits and -; its host keys are environment variable names',
        run: () => {
          assert.match(adapter.name, NAME);
          for (const key of adapter.hostKeys ?? []) assert.match(key, ENV_NAME);
        },
      },
      {
        name: 'it plays any family or registered ones, named at least once',
        run: () => {
          if (adapter.families === 'any') return;
          assert.ok(adapter.families.length > 0, 'families: an empty list');
          for (const name of adapter.families) assert.ok(FAMILIES.has(name), `families: ${name} is no registered task family`);
        },
      },
      {
        name: 'its image layer, when it has one, is a Dockerfile beside it built FROM the base image (ARG BASE)',
        run: () => {
          const layer = adapter.imageLayer;
          if (!layer) return;
          assert.match(layer.name, NAME);
          assert.ok(existsSync(layer.dockerfile), `${layer.dockerfile}: no such file`);
          const text = readFileSync(layer.dockerfile, 'utf8');
          assert.match(text, /^ARG BASE\s*$/m, `${layer.dockerfile}: no ARG BASE`);
          assert.match(text, /^FROM \$\{?BASE\}?(\s|$)/m, `${layer.dockerfile}: not FROM the base image`);
          if (layer.context) assert.ok(statSync(layer.context).isDirectory(), `${layer.context}: no folder`);
          const args = adapter.buildArgs?.(exampleConfig(adapter)) ?? {};
          for (const [key, value] of Object.entries(args)) assert.equal(typeof value, 'string', `build argument ${key}`);
        },
      },
      {
        name: 'its check passes its example configuration, or says why in one line',
        run: () => {
          try {
            adapter.check?.(exampleConfig(adapter), { localModel: true });
          } catch (error) {
            assert.ok(error instanceof Error && error.message.trim() && !error.message.includes('\n'), `check threw ${String(error)}`);
          }
        },
      },
      {
        name: 'it launches on an example task of each family it plays: a command, absolute paths, string environment',
        async run() {
          const names = familiesOf(adapter);
          await loadWholeFamilies(names);
          for (const name of names) {
            const family = wholeFamily(name)!;
            const examples = FAMILIES.get(name).examples;
            if (!examples) continue;
            const task = (await family.load([examples])).tasks[0];
            assert.ok(task, `${name}: no example task`);
            const stepBudget = family.stepBudget(task);
            const ctx: AgentContext = {
              trialId: 'conformance__agent__1', family, task, stepBudget, seed: 1, agent: exampleConfig(adapter),
              instruction: family.renderInstruction(task, { stepBudget, attempt: 1 }), gatewayUrl: 'http://127.0.0.1:8900', token: 'conformance-token',
            };
            const launch = await adapter.launch(ctx);
            assert.ok(launch.command.length > 0 && launch.command.every((a) => typeof a === 'string'), `${name}: a command of strings`);
            for (const file of launch.files) assert.ok(path.posix.isAbsolute(file.path), `${name}: ${file.path} is no absolute path`);
            for (const dir of launch.logDirs) assert.ok(path.posix.isAbsolute(dir), `${name}: log folder ${dir} is no absolute path`);
            for (const [key, value] of Object.entries(launch.env)) assert.equal(typeof value, 'string', `${name}: env ${key}`);
          }
        },
      },
      {
        name: 'reading the logs of a run that left none gives facts or nothing, never an error',
        run: () => {
          const facts = adapter.readLogs?.(logDir) ?? {};
          for (const [key, value] of Object.entries(facts)) assert.ok(value === null || typeof value === 'number' || typeof value === 'boolean', `${key}: ${String(value)}`);
        },
      },
    ],
  };
}
