// The house rules on size (docs/internals/layers.md): no function over ~120 lines, no source file over ~400
// lines without a comment at its top saying why, no folder of more than 20 files, and no file under 30
// lines that only one module imports (it belongs in that module). Lists what breaks them; exits 1 if
// anything does.
//
//   npx tsx tools/lint/sizes.ts [folder=src] [--functions=120] [--files=400] [--folder-files=20] [--small=30]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  Number(args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const root = args.find((arg) => !arg.startsWith('--')) ?? 'src';
const maxFunction = option('functions', 120);
const maxFile = option('files', 400);
const maxFolder = option('folder-files', 20);
const small = option('small', 30);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

function nameOf(node: ts.Node): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/**
 * The package's entry points (package.json `exports` and `bin`, and the worker's script): modules
 * that nothing imports or that only `index.ts` re-exports, whatever their size.
 */
const entryPoint = /^(index\.ts|exports\/[^/]+\.ts|cli\/main\.ts|worker\/entry\.ts)$/;

/**
 * The folders under `root` holding more than {@link maxFolder} files, and the files under
 * {@link small} lines that exactly one module imports, in their folder's layer: fold them into it.
 * A file whose only importer is in another top folder of `root` is a layer's seam (`env/stdio.ts`,
 * the runtime's streams for the MCP server) and stays. `sources` maps each path to its text.
 *
 * @example
 * layoutProblems('src', new Map([['src/a/one.ts', "import { b } from './b.js';"], ['src/a/b.ts', 'export const b = 1;\n']]));
 * // ['src/a/b.ts: 1 lines, imported only by src/a/one.ts: fold it there']
 */
export function layoutProblems(
  root: string,
  sources: ReadonlyMap<string, string>,
  limits = { folderFiles: maxFolder, small },
): string[] {
  const problems: string[] = [];
  const perFolder = new Map<string, number>();
  for (const file of sources.keys()) perFolder.set(dirname(file), (perFolder.get(dirname(file)) ?? 0) + 1);
  for (const [folder, count] of perFolder) {
    if (count > limits.folderFiles) {
      problems.push(`${folder}: ${count} files, more than ${limits.folderFiles}: split it by part`);
    }
  }
  const importers = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    // Static imports, re-exports and import() with a literal path: every way a module is reached.
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = join(dirname(file), fileName).replace(/\.js$/, '.ts');
      if (!importers.has(target)) importers.set(target, new Set());
      importers.get(target)?.add(file);
    }
  }
  const topFolder = (file: string) => relative(root, file).split('/')[0];
  for (const [file, text] of sources) {
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const by = [...(importers.get(file) ?? [])];
    if (lines >= limits.small || by.length !== 1 || entryPoint.test(relative(root, file))) continue;
    if (topFolder(by[0]!) !== topFolder(file)) continue;
    problems.push(`${file}: ${lines} lines, imported only by ${by[0]}: fold it there`);
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = sourceFiles(root);
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length;
    // "Says why" is for a reader to judge; what is checked is that the file opens with a comment.
    if (lines > maxFile && !/^\s*(\/\/|\/\*)/.test(text)) {
      problems.push(`${file}: ${lines} lines, and no comment at its top saying why`);
    }
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > maxFunction) {
          problems.push(`${file}:${first + 1}: ${nameOf(node)} is ${last - first + 1} lines`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  problems.push(...layoutProblems(root, new Map(files.map((file) => [file, readFileSync(file, 'utf8')]))));
  for (const problem of problems) console.log(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
