import { tableToCsv, tableToMarkdown, type DataTable } from '../../common/table.js';

const table: DataTable = {
  id: 't',
  title: 'A table',
  columns: ['config', 'n', 'fa', 'tokens', 'p'],
  rows: [
    { config: 'a|b', n: 3, fa: 0.3725, tokens: 184441.5, p: 6.5e-27 },
    { config: 'say "hi", then', n: 0, fa: null, tokens: 0.25, p: 1 },
  ],
  percent: ['fa'],
  notes: ['UNEQUAL BUDGETS'],
};

describe('DataTable rendering', () => {
  test('Markdown: heading, notes, percent columns as % with a marked header, pipes escaped, null as -', () => {
    expect(tableToMarkdown(table)).toBe(
      [
        '### A table',
        '',
        '> UNEQUAL BUDGETS',
        '',
        '| config | n | fa % | tokens | p |',
        '|---|---|---|---|---|',
        '| a\\|b | 3 | 37.3 | 184442 | 6.5e-27 |',
        '| say "hi", then | 0 | - | 0.250 | 1 |',
        '',
      ].join('\n'),
    );
    expect(tableToMarkdown({ ...table, rows: [] })).toContain('(no rows)');
  });

  test('CSV: raw values, RFC 4180 quoting, empty for null', () => {
    expect(tableToCsv(table)).toBe('config,n,fa,tokens,p\na|b,3,0.3725,184441.5,6.5e-27\n"say ""hi"", then",0,,0.25,1\n');
  });
});
