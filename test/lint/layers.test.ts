// The layering rules of .dependency-cruiser.cjs (docs/internals/layers.md), run on a small src/ made for
// them: each import that breaks a rule is reported under that rule's name, and the allowed ones
// are not. `npm run lint` runs the same rules on the real src/.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const config = createRequire(import.meta.url)(join(repo, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[];
};

/** A src/ with one module per case; imports are extensionless so no tsconfig is needed. */
const files: Record<string, string> = {
  'src/engine.ts': "import { x } from './errors';\nexport const e = x;",
  'src/errors.ts': 'export const x = 1;',
  'src/index.ts': "export * from './engine';",
  // Allowed: down the layers, comlink in the worker, a type from a Node module.
  'src/worker/host.ts': "import 'comlink';\nimport { e } from '../engine';\nexport const h = e;",
  'src/ingest/parse.ts': "import { u } from '../context/uri';\nexport const p = u;",
  // A folder inside a layer's folder is in that layer.
  'src/ingest/parse/split.ts': "import { u } from '../../context/uri';\nexport const s = u;",
  'src/context/uri.ts': "import { x } from '../errors';\nexport const u = x;",
  'src/store/file.ts': "import type { FileHandle } from 'node:fs/promises';\nexport type F = FileHandle;",
  // The CLI is a Node program over the engine: Node's modules are its own.
  'src/cli/main.ts':
    "import { readFile } from 'node:fs';\nimport { e } from '../engine';\nexport const m = [readFile, e];",
  // Refused, each for the rule named in `expected`.
  'src/store/up.ts': "import { e } from '../engine';\nexport const s = e;",
  'src/context/tree.ts': "import { p } from '../ingest/parse';\nexport const t = p;",
  'src/client/page.ts': "import 'comlink';\nimport { e } from '../engine';\nexport const c = e;",
  'src/derived/side.ts': "import { u } from '../context/uri';\nexport const d = u;",
  'src/retrieve/a.ts': "import { b } from './b';\nexport const a = () => b;",
  'src/retrieve/b.ts': "import { a } from './a';\nexport const b = () => a;",
  'src/store/node.ts': "import { readFile } from 'node:fs';\nexport const n = readFile;",
  'src/elsewhere/x.ts': "import { x } from '../errors';\nexport const y = x;",
  'src/vector/entry.ts': "import { e } from '../index';\nexport const v = e;",
};

const expected = [
  'layer-store src/store/up.ts → src/engine.ts',
  'layer-context src/context/tree.ts → src/ingest/parse.ts',
  'layer-client src/client/page.ts → src/engine.ts',
  'comlink-only-in-worker src/client/page.ts → comlink',
  'layer-derived src/derived/side.ts → src/context/uri.ts',
  'no-circular src/retrieve/a.ts → src/retrieve/b.ts',
  'node-builtins-only-in-env src/store/node.ts → fs',
  'every-module-in-a-layer src/elsewhere/x.ts → src/errors.ts',
  'layer-vector src/vector/entry.ts → src/index.ts',
  'no-entry-imports src/vector/entry.ts → src/index.ts',
];

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'longship-layers-'));
  for (const [file, source] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), `${source}\n`);
  }
  await symlink(join(repo, 'node_modules'), join(root, 'node_modules'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('reports each import that breaks the layering under its rule, and nothing else', async () => {
  const { output } = await cruise(['src'], {
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
  });
  const { violations } = (output as ICruiseResult).summary;
  const found = violations.map(
    ({ rule, from, to }) => `${rule.name} ${from} → ${to.replace(/^.*node_modules\/(comlink)\/.*$/, '$1')}`,
  );
  expect(found.sort()).toEqual(expected.sort());
});
