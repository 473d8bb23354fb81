import { z } from 'zod';
import { text } from './args.js';

/** python_execute_code */
export const pythonExecuteCodeArgs = z.object({ code: text('code'), timeout_seconds: z.coerce.number().min(0.1).max(300).optional() });

/** python_generate_code */
export const pythonGenerateCodeArgs = z.object({ description: text('description'), extra_instructions: z.string().optional(), model: z.string().optional() });
