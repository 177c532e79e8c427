// Packs made to do harm, or damaged (docs/guide/ovpack.md, "What an import checks"): each is refused
// with a typed error, and the store is as it was.
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../context/fixtures.js';
import {
  everything,
  exported,
  membersOf,
  open,
  openVikingPack,
  pythonJson,
  sha256,
  utf8,
  zipOf,
} from './fixtures.js';

const P = 'viking://resources/project';

/** A good pack's members with `change` applied, zipped again. */
type Members = [string, Uint8Array][];
const changed = (pack: Uint8Array, change: (members: Members) => Members) => zipOf(change(membersOf(pack)));

/** The pack's manifest, as JSON.parse gives it: read and rewritten as a test pleases. */
// biome-ignore lint/suspicious/noExplicitAny: a hostile manifest has whatever shape a test gives it
type AnyJson = any;

/** The pack's manifest, rewritten by `edit`. */
const withManifest = (pack: Uint8Array, edit: (m: AnyJson) => void) =>
  changed(pack, (members) =>
    members.map(([name, data]) => {
      if (!name.endsWith('_ovpack/manifest.json')) return [name, data];
      const manifest = JSON.parse(new TextDecoder().decode(data));
      edit(manifest);
      return [name, utf8(JSON.stringify(manifest))];
    }),
  );

async function goodPack() {
  const source = await open();
  await source.write(`${P}/a.md`, 'Alpha text.', { parents: true });
  await source.write(`${P}/sub/b.md`, 'Beta text.', { parents: true });
  return exported(source, P, true);
}

const cases: [string, string, (pack: Uint8Array) => Uint8Array][] = [
  [
    'an entry that climbs out with ..',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => [...m, ['project/files/../../evil.md', utf8('x')]]),
  ],
  ['an absolute entry', 'CORRUPT_INPUT', (p) => changed(p, (m) => [...m, ['/etc/evil.md', utf8('x')]])],
  [
    'a backslash in an entry',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => [...m, ['project/files\\evil.md', utf8('x')]]),
  ],
  [
    'a drive letter',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => [...m, ['C:/project/files/evil.md', utf8('x')]]),
  ],
  [
    'an entry outside the root folder',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => [...m, ['other/files/x.md', utf8('x')]]),
  ],
  [
    'an entry the manifest does not list',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => [...m, ['project/files/extra.md', utf8('x')]]),
  ],
  [
    'a listed file missing',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => m.filter(([n]) => n !== 'project/files/a.md')),
  ],
  [
    'the same entry twice',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => [...m, m.find(([n]) => n === 'project/files/a.md')!]),
  ],
  [
    'a file changed (sha256)',
    'CORRUPT_INPUT',
    (p) => changed(p, (m) => m.map(([n, d]) => [n, n === 'project/files/a.md' ? utf8('Alphb text.') : d])),
  ],
  [
    'a size that lies',
    'CORRUPT_INPUT',
    (p) => withManifest(p, (m) => (m.entries.find((e: AnyJson) => e.path === 'a.md').size = 3)),
  ],
  [
    'a content_sha256 that lies',
    'CORRUPT_INPUT',
    (p) => withManifest(p, (m) => (m.content_sha256 = sha256('x'))),
  ],
  [
    'an unsafe manifest path',
    'CORRUPT_INPUT',
    (p) => withManifest(p, (m) => m.entries.push({ path: '../x', kind: 'directory' })),
  ],
  ['a manifest entry twice', 'CORRUPT_INPUT', (p) => withManifest(p, (m) => m.entries.push(m.entries[1]))],
  ['index records that lie', 'CORRUPT_INPUT', (p) => withManifest(p, (m) => (m.index.records.count += 1))],
  ['dense vectors that lie', 'CORRUPT_INPUT', (p) => withManifest(p, (m) => (m.index.dense.count += 1))],
  [
    'a root name that is not the folder',
    'CORRUPT_INPUT',
    (p) => withManifest(p, (m) => (m.root.name = 'other')),
  ],
  ['no manifest', 'CORRUPT_INPUT', (p) => changed(p, (m) => m.filter(([n]) => !n.endsWith('manifest.json')))],
  ['format version 2', 'UNSUPPORTED_INPUT', (p) => withManifest(p, (m) => (m.format_version = 2))],
  ['format version 4', 'UNSUPPORTED_INPUT', (p) => withManifest(p, (m) => (m.format_version = 4))],
  ['another kind', 'CORRUPT_INPUT', (p) => withManifest(p, (m) => (m.kind = 'zip'))],
  ['a truncated ZIP', 'CORRUPT_INPUT', (p) => p.slice(0, Math.floor(p.length / 2))],
  ['bytes that are no ZIP', 'CORRUPT_INPUT', () => utf8('just some text, not a zip at all')],
  ['a binary file', 'BINARY_INPUT', () => binaryPack()],
];

function binaryPack() {
  const pack = openVikingPack('pkg', { 'a.md': 'x' });
  return changed(pack, (members) => {
    const data = new Uint8Array([0xff, 0xfe, 0x00, 0x01]);
    const manifestAt = members.findIndex(([n]) => n.endsWith('manifest.json'));
    const manifest = JSON.parse(new TextDecoder().decode(members[manifestAt]![1]));
    manifest.entries[1] = { path: 'a.md', kind: 'file', size: 4, sha256: sha256(data) };
    manifest.content_sha256 = sha256(pythonJson([{ path: 'a.md', size: 4, sha256: sha256(data) }]));
    members[manifestAt] = [members[manifestAt]![0], utf8(JSON.stringify(manifest))];
    return members.map(([n, d]) => [n, n === 'pkg/files/a.md' ? data : d]);
  });
}

describe('a hostile or damaged pack', () => {
  it.each(cases)('is refused: %s (%s), nothing written', async (_, code, make) => {
    const pack = make(await goodPack());
    const target = await open();
    await target.write('viking://resources/kept.md', 'Kept.');
    const before = await everything(target);
    await expectCode(target.import(pack, 'viking://resources'), code);
    expect(await everything(target)).toEqual(before);
  });

  it('a zip bomb is refused (INPUT_TOO_LARGE) by its ratio, and past maxBytes', async () => {
    const target = await open();
    const before = await everything(target);
    const bomb = zipSync({ 'pkg/files/bomb.md': new Uint8Array(64 * 1024 * 1024).fill(97) }, { level: 9 });
    expect(bomb.length).toBeLessThan(200 * 1024);
    await expectCode(target.import(bomb, 'viking://resources'), 'INPUT_TOO_LARGE');
    await expectCode(
      target.import(await goodPack(), 'viking://resources', { maxBytes: 100 }),
      'INPUT_TOO_LARGE',
    );
    expect(await everything(target)).toEqual(before);
  });

  it('a pack for another scope, or a target outside the roots, is INVALID_ARGUMENT', async () => {
    const target = await open();
    const pack = await goodPack();
    await expectCode(target.import(pack, 'viking://user/default/memories'), 'INVALID_ARGUMENT');
    await expectCode(target.import(pack, 'viking://'), 'INVALID_ARGUMENT');
    await expectCode(target.import('not a pack' as never, 'viking://resources'), 'INVALID_ARGUMENT');
  });

  it('a file where a directory must be is refused', async () => {
    const pack = openVikingPack('pkg', { a: 'file a', 'a/b.md': 'below a file' });
    await expectCode((await open()).import(pack, 'viking://resources'), 'CORRUPT_INPUT');
  });
});
