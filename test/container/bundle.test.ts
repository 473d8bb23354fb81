import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOL_HELP } from '../../container/help-table.js';
import { REPO_ROOT } from '../helpers/data.js';

const CLI = path.join(REPO_ROOT, 'dist', 'tools-cli.cjs');
const tools = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

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
});
