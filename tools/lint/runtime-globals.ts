// Only src/env/ touches the runtime's globals (docs/internals/layers.md); src/cli/, the `longship` command, is a
// Node program and is exempt, as in biome.json. Biome's noRestrictedGlobals
// (biome.json) refuses them by name, as in `process.versions`; it cannot see them reached through
// the global object, as in `(globalThis as { location?: … }).location`. This finds that form, for
// the same names, read from biome.json so that there is one list.
// Usage: tsx tools/lint/runtime-globals.ts   (exit 1 and one line per use when any is found)
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = fileURLToPath(new URL('../../', import.meta.url));
/** The names of the global object itself: a property read through one is a global. */
const globalObjects = new Set(['globalThis', 'self', 'window', 'global']);

/** The denied globals of biome.json's override for src/ (outside src/env/). */
export async function deniedGlobals(): Promise<Set<string>> {
  const config = JSON.parse(await readFile(join(repo, 'biome.json'), 'utf8')) as {
    overrides: Array<{ linter?: { rules?: { style?: { noRestrictedGlobals?: unknown } } } }>;
  };
  for (const override of config.overrides) {
    const rule = override.linter?.rules?.style?.noRestrictedGlobals as
      | { options: { deniedGlobals: Record<string, string> } }
      | undefined;
    if (rule) return new Set(Object.keys(rule.options.deniedGlobals));
  }
  throw new Error('biome.json has no noRestrictedGlobals rule');
}

/** `x as T`, `(x)`, `x!` and `<T>x` are all `x`. */
function unwrap(node: ts.Expression): ts.Expression {
  let inner = node;
  while (
    ts.isParenthesizedExpression(inner) ||
    ts.isAsExpression(inner) ||
    ts.isNonNullExpression(inner) ||
    ts.isTypeAssertionExpression(inner) ||
    ts.isSatisfiesExpression(inner)
  ) {
    inner = inner.expression;
  }
  return inner;
}

/** Each `globalThis.name` or `globalThis['name']` in `source` whose name is denied, as `file:line name`. */
export function globalReads(file: string, source: string, denied: Set<string>): string[] {
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let name: string | undefined;
    let object: ts.Expression | undefined;
    if (ts.isPropertyAccessExpression(node)) {
      name = node.name.text;
      object = node.expression;
    } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      name = node.argumentExpression.text;
      object = node.expression;
    }
    if (name !== undefined && object !== undefined && denied.has(name)) {
      const target = unwrap(object);
      if (ts.isIdentifier(target) && globalObjects.has(target.text)) {
        const { line } = parsed.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1} ${target.text}.${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return found;
}

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const denied = await deniedGlobals();
  const files = (await sourceFiles(join(repo, 'src')))
    .map((file) => relative(repo, file).split('\\').join('/'))
    .filter((file) => !file.startsWith('src/env/') && !file.startsWith('src/cli/'));
  const found: string[] = [];
  for (const file of files.sort())
    found.push(...globalReads(file, await readFile(join(repo, file), 'utf8'), denied));
  if (found.length > 0) {
    console.error(
      `Only src/env/ touches the runtime's globals (docs/internals/layers.md):\n  ${found.join('\n  ')}`,
    );
    process.exit(1);
  }
}
