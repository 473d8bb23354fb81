import type { z } from 'zod';

/** A store file's text as data its schema accepts; invalid JSON or a field that is wrong is one line naming the file. */
export function parseJsonFile<T>(file: string, text: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: invalid JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return parsed.data;
}
