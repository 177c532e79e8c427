// The file store's damage fuzz (docs/guide/file-store.md, "Recovery"): each case builds a store through
// Longship (a few documents, maybe a removal, compactions or not, closed or crashed), then loses,
// truncates or corrupts one of its files at a random point (or leaves a stale lock or a temporary
// file behind), reopens it with openLongship({ store: path }), and checks the recovery table's row for it:
// a typed error that left the folder as it was, or an open that passes verify(), whose every find()
// hit reads, that deleted no log, and that holds every write acknowledged before the damage, but
// those in a log's tail that a cut took away. Free of Vitest, so that a script can run it long.

import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import v8 from 'node:v8';
import fc from 'fast-check';
import { indexesOf, type Longship, openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { frames as framed, readFrames } from '../../src/store/file/file-frames.js';
import { openFileStore } from '../../src/store/file/file-open.js';
import { type CommitBody, RecordCodec, RecordKind } from '../../src/store/file/file-records.js';
import type { UsearchModule } from '../../src/vector/usearch-module.js';
import { hashEmbedder } from '../context/hash-embedder.js';

const R = 'viking://resources/docs';
const EMBEDDER = { id: hashEmbedder.id, dimensions: hashEmbedder.dimensions };
const WORDS = 'river lake mountain forest harbour bridge castle meadow valley island'.split(' ');
const uriOf = (i: number) => `${R}/d${i}.md`;
const textOf = (i: number) => `Document ${i} tells of the ${WORDS[i % 10]} by the ${WORDS[(i * 3) % 10]}.`;

/** How a case's store is built: drawn from few enough that each is built once and copied. */
export interface Build {
  docs: number;
  /** A small checkpointAfterBytes: compactions, a checkpoint and a log past log-0. */
  compact: boolean;
  /** Dropped without close() (its snapshots as the background left them), or closed. */
  crash: boolean;
}

export type DamageKind = 'lose' | 'truncate' | 'flip' | 'zero';

/** What is done to which file: `target` picks among the store's files, `at` a point in it. */
export interface Damage {
  target: number;
  kind: DamageKind;
  /** Where in the file, as a fraction of its length in 2^-32ths. */
  at: number;
  xor: number;
  length: number;
}

/** A frame of the current log: where it starts, where its checksummed bytes end, where it ends. */
interface Frame {
  start: number;
  checked: number;
  end: number;
  puts: string[];
  deletes: string[];
}

/** A built store, copied for each case. */
interface Template {
  dir: string;
  log: string;
  frames: Frame[];
  /** URIs written and acknowledged, with their text, and those removed after. */
  written: Map<string, string>;
  removed: Set<string>;
  /**
   * What a case may damage, in groups drawn alike (the snapshots one group, the log three times, the
   * checkpoint twice): the store's files, and what may be left beside them.
   */
  targets: string[][];
}

export interface FuzzOutcome {
  cases: number;
  /** How many cases ended each way, by target and outcome ("log-2 truncate: open"). */
  outcomes: Map<string, number>;
}

export interface FileDamageOptions {
  seed: number;
  cases: number;
  /** Where the stores go (a fresh folder, removed after). */
  root: string;
  usearch: UsearchModule;
  /** Called after each case, with how many are done. */
  onCase?: (done: number) => void;
}

/** Runs `cases` seeded cases; throws fast-check's report (seed, path, shrunk case) on a failure. */
export async function runFileDamage(options: FileDamageOptions): Promise<FuzzOutcome> {
  const { root, usearch } = options;
  mkdirSync(root, { recursive: true });
  const templates = new Map<string, Template>();
  const outcomes = new Map<string, number>();
  let done = 0;
  let serial = 0;
  const build = fc.record({
    docs: fc.integer({ min: 1, max: 6 }),
    compact: fc.boolean(),
    crash: fc.boolean(),
  });
  const damage = fc.record({
    target: fc.nat(),
    kind: fc.constantFrom<DamageKind>('lose', 'truncate', 'flip', 'zero'),
    at: fc.nat({ max: 2 ** 32 - 1 }),
    xor: fc.integer({ min: 1, max: 255 }),
    length: fc.integer({ min: 1, max: 64 }),
  });
  await fc.assert(
    fc.asyncProperty(build, damage, fc.boolean(), async (recipe, hurt, goOn) => {
      const key = JSON.stringify(recipe);
      let template = templates.get(key);
      if (!template) {
        template = await buildTemplate(join(root, `template-${templates.size}`), recipe, usearch);
        templates.set(key, template);
      }
      const dir = join(root, `case-${serial++}`);
      try {
        const outcome = await runCase(template, dir, hurt, goOn, usearch);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      done++;
      options.onCase?.(done);
    }),
    { seed: options.seed, numRuns: options.cases },
  );
  return { cases: done, outcomes };
}

async function buildTemplate(dir: string, recipe: Build, usearch: UsearchModule): Promise<Template> {
  const store = await openFileStore(dir, {
    embedder: EMBEDDER,
    ...(recipe.compact ? { checkpointAfterBytes: 1024 } : {}),
  });
  const snapshots = { delayMs: recipe.crash ? 0 : Number.POSITIVE_INFINITY };
  const longship = await openLongship({ store, embedder: hashEmbedder, usearch, snapshots });
  const written = new Map<string, string>();
  const removed = new Set<string>();
  for (let i = 0; i < recipe.docs; i++) {
    await longship.write(uriOf(i), textOf(i), { parents: true });
    written.set(uriOf(i), textOf(i));
  }
  if (recipe.docs % 2 === 1 && recipe.docs > 1) {
    await longship.rm(uriOf(1));
    removed.add(uriOf(1));
  }
  if (recipe.crash) {
    // As the model test's crash: the indexes stop without a snapshot, the store lets go.
    await indexesOf(longship).close({ snapshot: false });
    await longship.store.close();
  } else {
    await longship.close();
  }
  const logs = readdirSync(dir).filter((name) => /^log-\d+$/.test(name));
  assert.equal(logs.length, 1, `one log after the build: ${logs}`);
  const log = logs[0]!;
  const snaps = existsSync(join(dir, 'snapshots'))
    ? readdirSync(join(dir, 'snapshots')).map((name) => `snapshots/${name}`)
    : [];
  const targets = [
    ['longship.json'],
    [log],
    [log],
    [log],
    ['log-stray'],
    ['snapshots'],
    ['lock'],
    ['checkpoint.tmp'],
  ];
  if (snaps.length > 0) targets.push(snaps, snaps);
  if (existsSync(join(dir, 'checkpoint'))) targets.push(['checkpoint'], ['checkpoint']);
  return { dir, log, frames: framesOf(readFileSync(join(dir, log))), written, removed, targets };
}

function framesOf(bytes: Uint8Array): Frame[] {
  const codec = new RecordCodec(v8);
  return readFrames(bytes).payloads.map((payload) => {
    const start = payload.byteOffset - bytes.byteOffset - 8;
    const record = codec.decode(payload);
    const plan = record.kind === RecordKind.commit ? (record.body as CommitBody).plan : undefined;
    return {
      start,
      checked: start + 8 + payload.length,
      end: start + 8 + ((payload.length + 3) & ~3),
      puts: plan?.putNodes.map((n) => n.uri) ?? [],
      deletes: plan?.deleteNodes ?? [],
    };
  });
}

/** What the recovery table lets a case end with. */
interface Expected {
  /** Error codes allowed; 'open' where the open may succeed. */
  allowed: Set<string>;
  /** The log's frames from this byte on may be cut away (Infinity: none). */
  cutFrom: number;
  /** Logs the open must remove (left behind by a compaction cut short); every other one stays. */
  removed?: string[];
  /** The table's row, where the file and the kind of damage do not say it. */
  row?: string;
}

/** Damages a copy of `template`, reopens it and checks the table's row; returns how it ended. */
async function runCase(
  template: Template,
  dir: string,
  hurt: Damage,
  goOn: boolean,
  usearch: UsearchModule,
): Promise<string> {
  cpSync(template.dir, dir, { recursive: true });
  const group = template.targets[hurt.target % template.targets.length]!;
  const target = group[Math.floor(hurt.target / template.targets.length) % group.length]!;
  const expected = await damage(template, dir, target, hurt);
  const row =
    expected.row ??
    `${target.replace(/^log-\d+$/, 'log').replace(/^snapshots\/.*/, 'snapshot')} ${hurt.kind}`;
  const logsBefore = logsIn(dir);
  const before = contents(dir);
  let longship: Longship;
  try {
    longship = await openLongship({ store: dir, embedder: hashEmbedder, usearch });
  } catch (error) {
    if (!(error instanceof LongshipError)) throw error;
    assert.ok(expected.allowed.has(error.code), `${row}: ${error.code} (${error.message})`);
    // Every refusal leaves the folder as it was (the lock it took, it let go).
    assert.deepEqual(contents(dir), before, `${row}: the refusal changed the folder`);
    return `${row}: ${error.code}`;
  }
  try {
    assert.ok(expected.allowed.has('open'), `${row}: opened, where the table says ${[...expected.allowed]}`);
    for (const log of logsBefore) {
      const removed = expected.removed?.includes(log) ?? false;
      assert.equal(
        existsSync(join(dir, log)),
        !removed,
        `${row}: ${log} ${removed ? 'stayed' : 'was deleted'}`,
      );
    }
    assert.deepEqual(await longship.verify(), { ok: true, problems: [] }, row);
    await checkWrites(longship, template, expected.cutFrom, row);
    await checkHits(longship, row);
    if (goOn) {
      // It goes on from there: a write after the recovery survives the next open.
      await longship.write(uriOf(99), textOf(99), { parents: true });
      await longship.close();
      longship = await openLongship({ store: dir, embedder: hashEmbedder, usearch });
      assert.equal(await longship.read(uriOf(99)), textOf(99), `${row}: the write after the recovery`);
    }
  } finally {
    await indexesOf(longship).close({ snapshot: false });
    await longship.store.close();
  }
  return `${row}: open`;
}

/** Does `hurt` to `target` in `dir`; says what the recovery table expects of the open. */
async function damage(template: Template, dir: string, target: string, hurt: Damage): Promise<Expected> {
  const file = join(dir, target);
  const all = { allowed: new Set(['open']), cutFrom: Number.POSITIVE_INFINITY };
  if (target === 'lock') return plantLock(file, hurt);
  if (target === 'log-stray') return plantLog(template, dir, hurt);
  if (target === 'checkpoint.tmp') {
    await writeFile(file, new Uint8Array(hurt.length).fill(hurt.xor));
    return { ...all, row: 'checkpoint.tmp left' };
  }
  if (target === 'snapshots') {
    rmSync(file, { recursive: true, force: true });
    return { ...all, row: 'snapshots/ lose' };
  }
  if (hurt.kind === 'lose') {
    rmSync(file, { recursive: true, force: true });
    if (target.startsWith('snapshots')) return all;
    return { allowed: new Set(['STORE_ERROR']), cutFrom: 0 };
  }
  const bytes = readFileSync(file);
  const at = Math.floor((hurt.at / 2 ** 32) * bytes.length);
  const changed: number[] = [];
  if (hurt.kind === 'truncate') {
    await truncate(file, at);
    for (let i = at; i < bytes.length; i++) changed.push(i);
  } else {
    const end = hurt.kind === 'flip' ? at + 1 : Math.min(bytes.length, at + hurt.length);
    for (let i = at; i < end; i++) {
      const next = hurt.kind === 'flip' ? bytes[i]! ^ hurt.xor : 0;
      if (next !== bytes[i]) changed.push(i);
      bytes[i] = next;
    }
    await writeFile(file, bytes);
  }
  if (target.startsWith('snapshots/')) return all;
  if (target === 'longship.json') {
    return {
      allowed: new Set(['open', 'STORE_ERROR', 'SCHEMA_MISMATCH']),
      cutFrom: Number.POSITIVE_INFINITY,
    };
  }
  if (target === 'checkpoint') {
    // Changed bytes in the zeros that pad a frame are read by nothing: it opens whole.
    return hurt.kind === 'truncate'
      ? { allowed: new Set(['STORE_ERROR']), cutFrom: 0 }
      : {
          allowed: new Set(['open', 'STORE_ERROR']),
          cutFrom: Number.POSITIVE_INFINITY,
        };
  }
  return logExpected(template.frames, changed, hurt.kind === 'truncate');
}

/**
 * The log's row: the first frame whose checksummed bytes changed is where the readable log ends. A
 * torn tail (no intact frame after it) is cut there; intact frames after it are damage:
 * STORE_ERROR. A truncation cuts at the frame it falls in.
 */
function logExpected(frames: Frame[], changed: number[], truncated: boolean): Expected {
  const hit = (f: Frame) => changed.some((i) => i >= f.start && i < (truncated ? f.end : f.checked));
  const first = frames.findIndex(hit);
  if (first < 0) return { allowed: new Set(['open']), cutFrom: Number.POSITIVE_INFINITY };
  const intactAfter = frames.slice(first + 1).some((f) => !hit(f));
  if (intactAfter) return { allowed: new Set(['STORE_ERROR']), cutFrom: 0 };
  return { allowed: new Set(['open']), cutFrom: frames[first]!.start };
}

/** A lock left behind a minute ago: by a process that is gone (it is taken over), or a live one. */
async function plantLock(file: string, hurt: Damage): Promise<Expected> {
  const planted = {
    lose: ['', 'empty'],
    truncate: ['\n', 'a newline'],
    flip: ['x'.repeat(hurt.length), 'garbage'],
    zero: ['4194300\n', 'a pid gone'],
  } as const;
  const [text, what] = planted[hurt.kind];
  await writeFile(file, text);
  const old = new Date(Date.now() - 60_000);
  utimesSync(file, old, old);
  const pid = Number.parseInt(text, 10);
  let alive = false;
  try {
    alive = Number.isSafeInteger(pid) && pid > 0 && process.kill(pid, 0);
  } catch {
    alive = false;
  }
  return {
    allowed: new Set([alive ? 'STORE_LOCKED' : 'open']),
    cutFrom: Number.POSITIVE_INFINITY,
    row: `lock (${what}) left`,
  };
}

/**
 * A log beside the current one, as a compaction cut short leaves them: an older one (folded into the
 * checkpoint, removed), the next one holding its header alone (removed); or the next one holding
 * records, which the checkpoint does not lead to (as if an older checkpoint were put back):
 * STORE_ERROR.
 */
async function plantLog(template: Template, dir: string, hurt: Damage): Promise<Expected> {
  const generation = Number(template.log.slice('log-'.length));
  const current = readFileSync(join(dir, template.log));
  const none = Number.POSITIVE_INFINITY;
  if (hurt.kind === 'lose' && generation > 0) {
    const older = `log-${generation - 1}`;
    await writeFile(join(dir, older), current);
    return { allowed: new Set(['open']), cutFrom: none, removed: [older], row: 'older log left' };
  }
  const next = `log-${generation + 1}`;
  if ((hurt.kind === 'flip' || hurt.kind === 'zero') && template.frames.length > 1) {
    await writeFile(join(dir, next), current);
    return { allowed: new Set(['STORE_ERROR']), cutFrom: 0, row: 'next log with records' };
  }
  const header = { format: 'longship-file-store', version: 1, generation: generation + 1 };
  await writeFile(join(dir, next), framed([new RecordCodec(v8).encode(RecordKind.header, header)]));
  return { allowed: new Set(['open']), cutFrom: none, removed: [next], row: 'next log, header alone' };
}

/**
 * Every acknowledged write the cut did not take is there, as written; a document whose removal the
 * cut did not take is gone.
 */
async function checkWrites(longship: Longship, template: Template, cutFrom: number, row: string) {
  const lost = (f: Frame) => f.end > cutFrom;
  for (const [uri, text] of template.written) {
    const node = await longship.store.node(uri);
    if (template.removed.has(uri)) {
      // Removed in a frame that stayed, or before this log began (or never made, if it was cut too).
      const removal = template.frames.find((f) => f.deletes.includes(uri));
      if (!removal || !lost(removal)) assert.equal(node, undefined, `${row}: ${uri} was removed`);
      continue;
    }
    // Written before this log began (in the checkpoint), or in a frame that stayed.
    const made = template.frames.find((f) => f.puts.includes(uri));
    if (made && lost(made)) continue;
    assert.ok(node, `${row}: the acknowledged ${uri} is missing`);
    if (!template.frames.some((f) => lost(f) && f.puts.includes(uri))) {
      assert.equal(await longship.read(uri), text, `${row}: ${uri} reads otherwise`);
    }
  }
}

/** Every hit of a few queries is a node, and a leaf's reads. */
async function checkHits(longship: Longship, row: string): Promise<void> {
  for (const query of WORDS.slice(0, 3)) {
    const found = await longship.find(query, { limit: 10 });
    for (const hit of [...found.resources, ...found.memories, ...found.skills]) {
      assert.ok(
        await longship.store.node(hit.uri),
        `${row}: find("${query}") hit ${hit.uri}, which is not there`,
      );
      if (hit.isLeaf) await longship.read(hit.uri);
    }
  }
}

function logsIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => /^log-\d+$/.test(name));
}

/** Every file under `dir` but the lock and temporary files, with its bytes. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name === 'lock' || name.endsWith('.tmp')) continue;
    const file = join(dir, name);
    out[name] = statSync(file).isDirectory() ? '<dir>' : readFileSync(file, 'base64');
  }
  return out;
}
