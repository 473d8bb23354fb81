import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { forEachDumpRow, InsertTupleParser, type SqlValue } from '../../../../tasks/wikirace/graph/sql-dump.js';
import { dumpText } from '../../../helpers/wikipedia-dump.js';

const rows: SqlValue[][] = [
  [1, 0, "Rock_'n'_Roll", 0, null],
  [2, 0, 'Café_de_Flore', 1, 'a\\b'],
  [3, 14, 'Say_"hi",_(twice)', 0, 'x\ny'],
  [4, 0, '', 0, -1.5e-3],
];
const text = dumpText('page', rows, 3).replace(/`page_random[^\n]*\n/, '');

function parse(chunks: string[]): { rows: SqlValue[][]; columns: string[] | undefined } {
  const out: SqlValue[][] = [];
  const parser = new InsertTupleParser('page', (row) => out.push(row));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return { rows: out, columns: parser.columns };
}

describe('InsertTupleParser', () => {
  test('reads quoted strings with escapes, numbers and NULL from extended INSERTs', () => {
    const { rows: got, columns } = parse([text]);
    expect(got).toEqual(rows);
    expect(columns!.slice(0, 4)).toEqual(['page_id', 'page_namespace', 'page_title', 'page_is_redirect']);
  });

  test('gives the same rows however the text is cut into chunks (here: one character at a time)', () => {
    expect(parse([...text]).rows).toEqual(rows);
    expect(parse([text.slice(0, 777), text.slice(777, 801), text.slice(801)]).rows).toEqual(rows);
  });

  test('skips the INSERTs of other tables', () => {
    expect(parse([text.replaceAll('INSERT INTO `page`', 'INSERT INTO `pagelinks`')]).rows).toEqual([]);
  });

  test('a dump cut off inside an INSERT is an error, not a shorter table', () => {
    expect(() => parse([text.slice(0, text.indexOf('Café'))])).toThrow('table page: the dump ends inside an INSERT statement');
  });

  test('a broken row names the table and where', () => {
    expect(() => parse(["INSERT INTO `page` VALUES (1,0,'A',0) x;"])).toThrow(/table page: unexpected "x" between rows at character 3\d/);
    expect(() => parse(['INSERT INTO `page` VALUES (1,zero,2);'])).toThrow('unreadable value "zero"');
  });
});

describe('forEachDumpRow', () => {
  test('streams a gzip dump and hands over rows with the column names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aar-sql-dump-'));
    const file = join(dir, 'testwiki-page.sql.gz');
    writeFileSync(file, gzipSync(text));
    const got: SqlValue[][] = [];
    let names: readonly string[] = [];
    expect(await forEachDumpRow(file, 'page', (row, columns) => { got.push(row); names = columns; })).toBe(4);
    expect(got).toEqual(rows);
    expect(names[2]).toBe('page_title');
  });

  test('a file that is not the table dump, or missing, is a one-line error naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aar-sql-dump-'));
    const file = join(dir, 'other.sql');
    writeFileSync(file, dumpText('redirect', [[1, 0, 'A', '', '']]));
    await expect(forEachDumpRow(file, 'page', () => {})).rejects.toThrow(`${file}: no rows of table page`);
    await expect(forEachDumpRow(join(dir, 'none.sql.gz'), 'page', () => {})).rejects.toThrow(`${join(dir, 'none.sql.gz')}: ENOENT`);
    writeFileSync(join(dir, 'bad.sql.gz'), 'not gzip');
    await expect(forEachDumpRow(join(dir, 'bad.sql.gz'), 'page', () => {})).rejects.toThrow(join(dir, 'bad.sql.gz'));
  });
});
