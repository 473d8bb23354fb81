import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOL_HELP } from '../../container/help-table.js';
import { REPO_ROOT } from '../helpers/data.js';

const CLI = path.join(REPO_ROOT, 'dist', 'tools-cli.cjs');
const tools = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
const toolsWith = (env: Record<string, string>, ...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

describe('the bundled tools command (built by npm run build)', () => {
  test('carries no zod', () => {
    expect(readFileSync(CLI, 'utf8')).not.toMatch(/zod|ZodError/);
  });

  test('its help is the one the definitions give', () => {
    expect(tools('--list').trim().split('\n')).toEqual(TOOL_HELP.map((t) => t.name));
    for (const tool of TOOL_HELP) {
      const help = tools(tool.name, '--help');
      expect(help).toContain(`${tool.name}: ${tool.summary}\nReturns ${tool.returns}.\n`);
      for (const p of tool.params) expect(help).toContain(`  ${p.name} (${p.type}${p.required ? ', required' : ''}): ${p.doc}\n`);
      expect(help).toContain(`tools ${tool.name} '${JSON.stringify(tool.example)}'`);
    }
  });

  test("a plugin's tools, which the bundle cannot know, are listed and described from the help the harness passes", () => {
    const lookup = { name: 'keychain_get', aliases: ['kc'], group: 'keychain', summary: 'Look a key up.', returns: 'the value', params: [{ name: 'key', type: 'string', required: true, doc: 'the key' }], example: { key: 'amber' }, runsIn: 'gateway' };
    const env = { AAR_TOOLS: 'keychain_get', AAR_TOOL_HELP: JSON.stringify([lookup]) };
    expect(toolsWith(env, '--list')).toBe('keychain_get\n');
    expect(toolsWith(env, 'kc', '--help')).toContain("keychain_get: Look a key up.\nReturns the value.\n\nArguments:\n  key (string, required): the key\n");
    // Help that is not a list of tools is left out, not an error.
    expect(toolsWith({ AAR_TOOL_HELP: '{not json' }, '--list').trim().split('\n')).toEqual(TOOL_HELP.map((t) => t.name));
  });
});
