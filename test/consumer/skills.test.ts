// Skills in the Agent Skills format from the installed package: its YAML parser (js-yaml, a
// dependency) installs with it and loads in Node (a skill folder added, read back), in Deno, and
// bundled for workerd as wrangler bundles a Worker (no Node built-in pulled in).
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { describe, expect, inject, it } from 'vitest';
import { bundleWorker } from './workerd-bundle.js';

const run = promisify(execFile);
const denoLauncher = createRequire(import.meta.url).resolve('deno/bin.cjs');

const skillMd =
  '---\\nname: tide-tables\\ndescription: Reads tide tables.\\nmetadata:\\n  author: ana\\n---\\n# Tides\\n';
// Parses one SKILL.md and fails to parse another: the same in every runtime.
const parse = `import { parseSkillMd } from 'longship/extend';
const parsed = parseSkillMd('${skillMd}');
let refused;
try { parseSkillMd('---\\nname: Tide Tables\\ndescription: d\\n---\\n'); } catch (error) { refused = error.code + ': ' + error.message; }
const answer = { frontmatter: parsed.frontmatter, body: parsed.body, refused };
`;
const expected = {
  frontmatter: { name: 'tide-tables', description: 'Reads tide tables.', metadata: { author: 'ana' } },
  body: '# Tides\n',
  refused: expect.stringMatching(/^INVALID_ARGUMENT: SKILL\.md: "name" "Tide Tables"/),
};

// A skill folder through openLongship (a memory store, a word-count embedder: no model to load).
const node = `import { functionEmbedder, openLongship } from 'longship';
${parse}
const embedder = functionEmbedder({ id: 'lengths', dimensions: 4, embed: async (texts) =>
  texts.map((t) => new Float32Array([t.length, t.split(' ').length, 1, 2])) });
const longship = await openLongship({ embedder });
await longship.addSkill({ files: { 'SKILL.md': '${skillMd}', 'notes.md': '# Notes\\n\\nHigh water at noon.\\n' } });
answer.skill = await longship.getSkill('tide-tables');
await longship.close();
console.log(JSON.stringify(answer));
`;

describe('skills from the installed package', () => {
  const root = inject('consumerRoot');
  const fixture = join(root, 'skills');

  it('adds and reads a skill folder in Node, js-yaml resolved from the install', async () => {
    await mkdir(fixture, { recursive: true });
    await writeFile(join(fixture, 'node.mjs'), node);
    const { stdout } = await run(process.execPath, ['node.mjs'], { cwd: fixture, timeout: 120_000 });
    const answer = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(answer).toEqual({
      ...expected,
      skill: {
        name: 'tide-tables',
        description: 'Reads tide tables.',
        uri: 'viking://agent/skills/tide-tables',
        frontmatter: expected.frontmatter,
        body: '# Tides\n',
        files: ['SKILL.md', 'notes.md'],
      },
    });
  }, 180_000);

  it('parses in Deno with no permission at all', async () => {
    await mkdir(fixture, { recursive: true });
    await writeFile(join(fixture, 'deno.ts'), `${parse}console.log(JSON.stringify(answer));\n`);
    const { stdout } = await run(process.execPath, [denoLauncher, 'run', '--no-prompt', 'deno.ts'], {
      cwd: fixture,
      timeout: 120_000,
    });
    expect(JSON.parse(stdout.trim())).toEqual(expected);
  }, 180_000);

  it('parses in workerd, bundled as wrangler bundles a Worker', async () => {
    await mkdir(fixture, { recursive: true });
    await writeFile(
      join(fixture, 'worker.js'),
      `${parse}export default { fetch: () => Response.json(answer) };\n`,
    );
    const modules = await bundleWorker(fixture, 'worker.js', {});
    expect(modules.map((m) => m.path)).toEqual(['worker.js']);
    const miniflare = new Miniflare({
      compatibilityDate: '2026-04-01',
      modules,
    });
    try {
      expect(await (await miniflare.dispatchFetch('http://localhost/')).json()).toEqual(expected);
    } finally {
      await miniflare.dispose();
    }
  }, 180_000);
});
