import { csvNoteLines, tableToCsv, tableToMarkdown, type DataTable } from '../../common/table.js';

export const TABLE_FORMATS = ['md', 'csv', 'json'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

/**
 * Tables as one text: Markdown sections; CSV blocks each after a `# <id>: <title>` line and its notes as
 * `# note: ...` lines (blocks split on blank lines); JSON, the tables with their rows and notes.
 */
export function renderTables(tables: readonly DataTable[], format: TableFormat): string {
  if (format === 'json') return JSON.stringify(tables, null, 2) + '\n';
  if (format === 'csv') return tables.map((t) => `# ${t.id}: ${t.title}\n${csvNoteLines(t)}${tableToCsv(t)}`).join('\n');
  return tables.map(tableToMarkdown).join('\n');
}
