/**
 * The shape of the product source: no import cycle (type-only imports, `export ... from` and dynamic
 * `import('./x')` count), no import from a lower layer up to a higher one, no file over 300 lines, and the
 * Layout section of docs/architecture.md naming exactly the
 * folders that exist. Each failure lists every offender, so one run says all that is wrong.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED = new Set(['test', 'node_modules', 'dist']);
const MAX_LINES = 300;

/** Folders git would keep (tracked or not ignored): what a local run left (jobs/, reports/, test-artifacts/) is no product folder. */
const KEPT_DIRS: Set<string> | undefined = (() => {
  if (!existsSync(join(ROOT, '.git'))) return undefined;
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n');
  const dirs = new Set<string>();
  for (const f of files) for (let d = dirname(f); d !== '.' && !dirs.has(d); d = dirname(d)) dirs.add(d);
  return dirs;
})();
const kept = (path: string): boolean => !KEPT_DIRS || KEPT_DIRS.has(rel(path));

function productDirs(): string[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name) && kept(join(ROOT, e.name)))
    .map((e) => e.name)
    .sort();
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === ROOT && SKIPPED.has(entry.name)) continue;
      if (entry.name === 'node_modules' || !kept(path)) continue;
      sourceFiles(path, out);
    } else if (/\.(ts|mjs)$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

const FILES = sourceFiles(ROOT).sort();
function rel(path: string): string {
  return relative(ROOT, path).split(sep).join('/');
}

/** Relative module specifiers of one file: imports, re-exports, `import x = require()`, `import('...')`. */
function specifiers(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
      && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)
      && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
      && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
      found.push((node.arguments[0] as ts.StringLiteralLike).text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
      && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

function resolveSpecifier(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [
    base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, `${base}.mjs`,
    join(base, 'index.ts'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile() && /\.(ts|mjs|mts)$/.test(c));
}

/** Every source file and the source files it imports. */
const GRAPH: Map<string, string[]> = new Map(FILES.map((file) => [file, [...new Set(specifiers(file).map((s) => resolveSpecifier(file, s)).filter((t): t is string => !!t))]]));

/**
 * The layers, lowest first, as the Layout section of docs/architecture.md orders them: a file may import its own layer and
 * the ones below, never one above (the verifier reads what the harness wrote, through trial/ and tasks/).
 * A top-level folder or file not listed here is a problem too: a new one takes its place in the order.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['common', 'pycompat', 'paths.ts'],
  ['trial'],
  ['tools'],
  ['container'],
  ['tasks'],
  ['verifier'],
  ['images', 'harness'],
  ['index.ts', 'bench', 'scripts', 'examples', 'stryker.config.mjs', 'test', 'dist'],
];
const layerOf = (path: string): number => LAYERS.findIndex((names) => names.includes(rel(path).split('/')[0]!));

function upwardImports(): string[] {
  const problems = new Set<string>();
  for (const [file, targets] of GRAPH) {
    if (layerOf(file) < 0) problems.add(`${rel(file).split('/')[0]}: no place in the layers`);
    for (const target of targets) {
      if (layerOf(target) > layerOf(file)) problems.add(`${rel(file)} imports ${rel(target)}, a higher layer`);
    }
  }
  return [...problems].sort();
}

/** Strongly connected components of more than one file (or a file importing itself): Tarjan. */
function importCycles(): string[][] {
  const graph = GRAPH;
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) { connect(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.map(rel).sort());
    }
  };
  for (const file of FILES) if (!index.has(file)) connect(file);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function lineCount(path: string): number {
  const text = readFileSync(path, 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The Layout section's code block, split into entries by top-level folder (`name/` at column 0). */
function layoutEntries(): Map<string, string> {
  const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = /^## Layout\n([\s\S]*?)(?=^## )/m.exec(page);
  if (!section) throw new Error('docs/architecture.md: no "## Layout" section');
  const block = /```\n([\s\S]*?)```/.exec(section[1]!);
  if (!block) throw new Error('docs/architecture.md: the Layout section has no code block');
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of block[1]!.split('\n')) {
    const head = /^([\w.-]+)\/\s/.exec(line);
    if (head) { current = head[1]!; entries.set(current, ''); }
    if (current) entries.set(current, `${entries.get(current)!}${line}\n`);
  }
  return entries;
}

function subdirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' && kept(join(dir, e.name)))
    .map((e) => e.name);
}

function allDirsBelow(dir: string, out = new Set<string>()): Set<string> {
  for (const name of subdirs(dir)) { out.add(name); allDirsBelow(join(dir, name), out); }
  return out;
}

function layoutProblems(): string[] {
  const entries = layoutEntries();
  const problems: string[] = [];
  for (const top of productDirs()) {
    const entry = entries.get(top);
    if (entry === undefined) { problems.push(`${top}/ is not named in the Layout section`); continue; }
    for (const sub of subdirs(join(ROOT, top))) {
      const named = new RegExp(`(^|[^\\w.-])${sub.replace(/[.-]/g, '\\$&')}(/|[^\\w.-]|$)`, 'm');
      if (!named.test(entry)) problems.push(`${top}/${sub}/ is not named under ${top}/ in the Layout section`);
    }
  }
  for (const [top, entry] of entries) {
    if (!existsSync(join(ROOT, top)) || !statSync(join(ROOT, top)).isDirectory()) {
      problems.push(`${top}/ is named in the Layout section but does not exist`);
      continue;
    }
    const below = allDirsBelow(join(ROOT, top));
    const body = entry.replace(/^[\w.-]+\//, '');
    for (const m of body.matchAll(/(?<![\w./-])([\w.-]+)\/(?![\w])/g)) {
      const name = m[1]!;
      if (!below.has(name) && !(existsSync(join(ROOT, name)) && statSync(join(ROOT, name)).isDirectory())) {
        problems.push(`${top}/: the Layout section names ${name}/, which is no folder below ${top}/`);
      }
    }
  }
  return [...new Set(problems)];
}

describe('the product source', () => {
  it('finds the source files it checks', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(FILES.map(rel)).toContain('trial/record.ts');
  });

  it('has no import cycle (type-only imports, re-exports and dynamic imports count)', () => {
    const listing = importCycles().map((files) => `cycle: ${files.join(' <-> ')}`);
    expect(listing).toEqual([]);
  });

  it('imports only from its own layer or a lower one (common < trial < tools < container < tasks < verifier < harness)', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('imports no test code outside bench/ (the package ships neither: package.json "files")', () => {
    const testDir = join(ROOT, 'test') + sep;
    const listing = FILES.filter((file) => !rel(file).startsWith('bench/')).flatMap((file) => specifiers(file).filter((s) => resolve(dirname(file), s).startsWith(testDir)).map((s) => `${rel(file)} imports ${s}`));
    expect(listing).toEqual([]);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const listing = FILES.map((f) => ({ file: rel(f), lines: lineCount(f) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(listing).toEqual([]);
  });

  it("matches the Layout section of docs/architecture.md: every folder and every folder one level below named, none invented", () => {
    expect(layoutProblems()).toEqual([]);
  });
});
