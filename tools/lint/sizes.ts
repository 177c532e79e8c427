// The house rules on size (docs/internals/layers.md): no function over ~120 lines, and no source file over ~400
// lines without a comment at its top saying why. Lists what breaks them; exits 1 if anything does.
//
//   npx tsx tools/lint/sizes.ts [folder=src] [--functions=120] [--files=400]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  Number(args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const root = args.find((arg) => !arg.startsWith('--')) ?? 'src';
const maxFunction = option('functions', 120);
const maxFile = option('files', 400);

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

const problems: string[] = [];
for (const file of sourceFiles(root)) {
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
for (const problem of problems) console.log(problem);
process.exitCode = problems.length > 0 ? 1 : 0;
