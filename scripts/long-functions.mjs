#!/usr/bin/env node
/**
 * Lists the product source's functions longer than a limit (default 60 lines), longest first: function
 * declarations, methods, accessors, constructors, function expressions and arrow functions with a block
 * body, counted from the line of their start to the line of their end (nested functions count in their
 * parent too, and are listed on their own). The product source is every .ts/.mjs file git keeps, outside
 * test/, scripts/, node_modules/ and dist/.
 *
 *   node scripts/long-functions.mjs [--max 60] [--json]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED = new Set(['test', 'scripts', 'node_modules', 'dist']);
const args = process.argv.slice(2);
const maxAt = args.indexOf('--max');
const MAX = maxAt >= 0 ? Number(args[maxAt + 1]) : 60;
if (!Number.isInteger(MAX) || MAX < 1) throw new Error(`--max: expected a whole number of lines, got ${args[maxAt + 1]}`);

const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 })
  .split('\n')
  .filter((f) => /\.(ts|mts|mjs)$/.test(f) && !f.endsWith('.d.ts') && !SKIPPED.has(f.split('/')[0]));

/** A readable name for a function node: its own, its variable's, its property's, or `(anonymous)`. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

const found = [];
for (const file of files) {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    const isFunction =
      ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) ||
      ts.isSetAccessor(node) || ts.isFunctionExpression(node) || (ts.isArrowFunction(node) && ts.isBlock(node.body));
    if (isFunction && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = end - start + 1;
      if (lines > MAX) found.push({ file, line: start + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
if (args.includes('--json')) process.stdout.write(JSON.stringify(found, null, 2) + '\n');
else {
  for (const f of found) process.stdout.write(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}\n`);
  process.stdout.write(`${found.length} functions over ${MAX} lines in ${files.length} files\n`);
}
