import { z } from 'zod';
import { text } from './args.js';
import { defineTool } from './define.js';

export const pythonExecuteCode = defineTool({
  name: 'python_execute_code',
  group: 'code',
  summary: 'Run a Python 3 program inside your container and return what it prints.',
  returns: 'its stdout (and stderr, and the exit code when not 0)',
  args: () => z.object({
    code: text('code').describe('the program; print what you need'),
    timeout_seconds: z.coerce.number().min(0.1).max(300).optional().describe('time limit, 0.1-300 (default 30)'),
  }),
  example: { code: 'print(abs(2007 - 1945) % 10)' },
  runsIn: 'container',
});

export const pythonGenerateCode = defineTool({
  name: 'python_generate_code',
  group: 'code',
  summary: 'Ask a code model to write a standalone Python 3 program for a task (run it with python_execute_code).',
  returns: 'the program text, without Markdown fences',
  args: () => z.object({
    description: text('description').describe('what the program must do'),
    extra_instructions: z.string().optional().describe('constraints or notes'),
    model: z.string().optional().meta({ undocumented: true, description: 'accepted and ignored: the host chooses the code model' }),
  }),
  example: { description: 'print the number of days between 1945-10-26 and 2007-01-01' },
  runsIn: 'gateway',
  provider: 'code-model',
});
