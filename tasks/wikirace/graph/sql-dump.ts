import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { StringDecoder } from 'node:string_decoder';

/** One field of a dumped row: a quoted string, a number, or NULL. */
export type SqlValue = string | number | null;

const PREAMBLE_LIMIT = 1 << 16;
const ESCAPES: Record<string, string> = { '0': '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };

/**
 * Reads the rows of `INSERT INTO `table` VALUES (...),(...);` statements from a MySQL dump as it
 * streams past, chunk by chunk: the state (inside a string, an escape, a partial field) carries over
 * chunk boundaries, so no statement or line is ever held whole. Everything outside the INSERTs
 * (comments, CREATE TABLE, LOCK TABLES) is skipped.
 */
export class InsertTupleParser {
  private mode: 'scan' | 'between' | 'field' | 'string' | 'escape' | 'afterString' = 'scan';
  private scanTail = '';
  private field = '';
  private row: SqlValue[] = [];
  private consumed = 0;
  private preamble = '';
  private readonly marker: string;
  /** Column names from the dump's CREATE TABLE, when it precedes the rows (mysqldump writes it). */
  columns: string[] | undefined;

  constructor(
    private readonly table: string,
    private readonly onRow: (row: SqlValue[]) => void,
    private readonly where = 'dump',
  ) {
    this.marker = `INSERT INTO \`${table}\` VALUES `;
  }

  private fail(what: string, at: number): never {
    throw new Error(`${this.where}: table ${this.table}: ${what} at character ${this.consumed + at}`);
  }

  private endField(quoted: boolean, at: number): void {
    if (quoted) this.row.push(this.field);
    else {
      const token = this.field.trim();
      if (token === 'NULL') this.row.push(null);
      else {
        const number = Number(token);
        if (token === '' || Number.isNaN(number)) this.fail(`unreadable value ${JSON.stringify(token.slice(0, 40))}`, at);
        this.row.push(number);
      }
    }
    this.field = '';
  }

  feed(chunk: string): void {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      switch (this.mode) {
        case 'scan': {
          const text = this.scanTail + chunk.slice(i);
          const found = text.indexOf(this.marker);
          if (this.columns === undefined && this.preamble.length < PREAMBLE_LIMIT) this.preamble += found < 0 ? chunk.slice(i) : text.slice(0, found);
          if (found >= 0 && this.columns === undefined) this.readColumns();
          if (found < 0) {
            this.scanTail = text.slice(-this.marker.length);
            i = n;
          } else {
            i += found + this.marker.length - this.scanTail.length;
            this.scanTail = '';
            this.mode = 'between';
          }
          break;
        }
        case 'between': {
          const c = chunk[i++]!;
          if (c === '(') {
            this.mode = 'field';
            this.row = [];
            this.field = '';
          } else if (c === ';') this.mode = 'scan';
          else if (c !== ',' && c !== '\n' && c !== '\r' && c !== ' ') this.fail(`unexpected ${JSON.stringify(c)} between rows`, i - 1);
          break;
        }
        case 'field': {
          let j = i;
          while (j < n) {
            const c = chunk.charCodeAt(j);
            if (c === 44 /* , */ || c === 41 /* ) */ || c === 39 /* ' */) break;
            j++;
          }
          this.field += chunk.slice(i, j);
          if (j === n) {
            i = n;
            break;
          }
          const c = chunk[j]!;
          i = j + 1;
          if (c === "'") {
            if (this.field.trim() !== '') this.fail('a quote inside an unquoted value', j);
            this.field = '';
            this.mode = 'string';
          } else {
            this.endField(false, j);
            if (c === ')') this.finishRow();
          }
          break;
        }
        case 'string': {
          let j = i;
          while (j < n) {
            const c = chunk.charCodeAt(j);
            if (c === 39 /* ' */ || c === 92 /* \ */) break;
            j++;
          }
          this.field += chunk.slice(i, j);
          if (j === n) {
            i = n;
            break;
          }
          i = j + 1;
          this.mode = chunk[j] === '\\' ? 'escape' : 'afterString';
          break;
        }
        case 'escape': {
          const c = chunk[i++]!;
          this.field += ESCAPES[c] ?? c;
          this.mode = 'string';
          break;
        }
        case 'afterString': {
          const c = chunk[i]!;
          if (c === "'") {
            // '' inside a string is a quote (standard SQL; mysqldump writes \' but accept both)
            this.field += "'";
            this.mode = 'string';
            i++;
          } else if (c === ',' || c === ')') {
            this.endField(true, i);
            i++;
            if (c === ')') this.finishRow();
            else this.mode = 'field';
          } else this.fail(`unexpected ${JSON.stringify(c)} after a quoted value`, i);
          break;
        }
      }
    }
    this.consumed += n;
  }

  private readColumns(): void {
    const create = new RegExp(`CREATE TABLE \`${this.table}\` \\(([\\s\\S]*?)\\n\\)`).exec(this.preamble);
    this.preamble = '';
    this.columns = create ? [...create[1]!.matchAll(/^\s*`([^`]+)`/gm)].map((m) => m[1]!) : [];
  }

  private finishRow(): void {
    this.onRow(this.row);
    this.mode = 'between';
  }

  /** Call at the end of the stream: a dump cut off inside a statement is an error, not a shorter table. */
  end(): void {
    if (this.mode !== 'scan') this.fail('the dump ends inside an INSERT statement (cut off?)', 0);
  }
}

/**
 * Streams `file` (gunzipped when it ends in .gz) and hands each row of `table` to `onRow`, with the
 * dump's column names (empty when it has no CREATE TABLE). Returns the row count.
 */
export async function forEachDumpRow(file: string, table: string, onRow: (row: SqlValue[], columns: readonly string[]) => void): Promise<number> {
  let rows = 0;
  const parser = new InsertTupleParser(table, (row) => {
    rows++;
    onRow(row, parser.columns ?? []);
  }, file);
  const raw = createReadStream(file);
  const stream = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (error) => stream.destroy(error));
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream) parser.feed(decoder.write(chunk as Buffer));
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(message.startsWith(file) ? message : `${file}: ${(error as NodeJS.ErrnoException).code ?? ''} ${message}`.replace(/: +/, ': '));
  }
  parser.feed(decoder.end());
  parser.end();
  if (rows === 0) throw new Error(`${file}: no rows of table ${table} (is this the ${table} dump?)`);
  return rows;
}
