// The model test's commands (fast-check model-based testing): each draws an API call, asks the model
// what must happen, makes the call, holds it to the model, then checks the whole tree and verify().
// Names are drawn from a few per root, so that calls collide: a write where a directory is, a move
// onto an existing node, an ingestion over earlier files, a session archive beside a user's file.

import fc from 'fast-check';
import { join, type VikingUri } from '../../src/context/uri.js';
import { messageText } from '../../src/session/message.js';
import {
  before,
  checkFound,
  checkTree,
  expectOutcome,
  findProbes,
  ModelMismatch,
  sameFinds,
} from './checks.js';
import type { ModelSwitches } from './switches.js';
import type { RealSystem } from './system.js';
import { SESSIONS, type TreeModel } from './tree-model.js';

type Cmd = fc.AsyncCommand<TreeModel, RealSystem>;

/** Counts the calls made, across runs, for the figures. */
export const counter = { ops: 0 };

class Step implements Cmd {
  constructor(
    readonly label: string,
    readonly act: (model: TreeModel, real: RealSystem) => Promise<void>,
    readonly full = false,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: TreeModel, real: RealSystem): Promise<void> {
    counter.ops++;
    const since = before(model);
    await this.act(model, real);
    // Everything after a reopen, what the step touched otherwise (the whole tree's shape always).
    await checkTree(model, real.longship, this.label, this.full ? undefined : since);
  }
  toString(): string {
    return this.label;
  }
}

const words = ['river', 'floods', 'spring', 'lake', 'winter', 'alpha', 'beta', 'gamma', 'tabs', 'quota'];
const text = (min: number) =>
  fc
    .array(fc.constantFrom(...words), { minLength: min, maxLength: 8 })
    .chain((ws) =>
      fc.constantFrom(ws.join(' '), ws.join('\n'), `# ${ws[0] ?? 'Title'}\n\n${ws.join(' ')}.\n`),
    );
const nonEmptyText = text(1);

const names: Record<string, readonly string[]> = {
  'viking://resources': ['a', 'b', 'x.md', 'y.txt'],
  'viking://user/memories': ['a', 'x.md'],
  'viking://agent/memories': ['sessions', 's1', '0001', 'a'],
  'viking://agent/skills': ['a', 'write-rfc'],
};
const under = (root: string, maxDepth: number) =>
  fc
    .array(fc.constantFrom(...names[root]!), { maxLength: maxDepth })
    .map((parts) => (parts.length ? join(root as VikingUri, parts.join('/')) : (root as VikingUri)));
const inRoots = fc.oneof(
  { weight: 6, arbitrary: under('viking://resources', 3) },
  { weight: 2, arbitrary: under('viking://user/memories', 2) },
  { weight: 2, arbitrary: under('viking://agent/memories', 4) },
  { weight: 1, arbitrary: under('viking://agent/skills', 2) },
);
/** Mostly inside the roots; now and then a root's parent or a place outside every root. */
const anyUri = fc.oneof(
  { weight: 12, arbitrary: inRoots },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'viking://user',
      'viking://agent',
      'viking://agent/x',
      'viking://other',
    ) as fc.Arbitrary<VikingUri>,
  },
);
const show = (value: unknown) => JSON.stringify(value);

function writeCmd() {
  return fc.record({ uri: anyUri, content: text(0), parents: fc.boolean() }).map(
    ({ uri, content, parents }) =>
      new Step(`write(${uri}, ${show(content)}, { parents: ${parents} })`, async (model, real) => {
        const expected = model.write(uri, content, parents);
        await expectOutcome(`write(${uri})`, expected, () => real.longship.write(uri, content, { parents }));
      }),
  );
}

function mkdirCmd() {
  return fc.record({ uri: anyUri, parents: fc.boolean() }).map(
    ({ uri, parents }) =>
      new Step(`mkdir(${uri}, { parents: ${parents} })`, async (model, real) => {
        await expectOutcome(`mkdir(${uri})`, model.mkdir(uri, parents), () =>
          real.longship.mkdir(uri, { parents }),
        );
      }),
  );
}

function rmCmd() {
  return fc.record({ uri: anyUri, recursive: fc.boolean() }).map(
    ({ uri, recursive }) =>
      new Step(`rm(${uri}, { recursive: ${recursive} })`, async (model, real) => {
        const expected = model.rm(uri, recursive);
        const count = await expectOutcome(`rm(${uri})`, expected, () => real.longship.rm(uri, { recursive }));
        if ('value' in expected && count !== expected.value)
          throw new ModelMismatch(`rm(${uri}) removed ${count} nodes, not ${expected.value}`);
      }),
  );
}

function mvCmd() {
  return fc.record({ from: anyUri, to: anyUri }).map(
    ({ from, to }) =>
      new Step(`mv(${from}, ${to})`, async (model, real) => {
        await expectOutcome(`mv(${from}, ${to})`, model.mv(from, to), () => real.longship.mv(from, to));
      }),
  );
}

function linkCmd() {
  return fc
    .record({ from: inRoots, to: inRoots, reason: fc.constantFrom('cites', 'see also'), undo: fc.boolean() })
    .map(({ from, to, reason, undo }) =>
      undo
        ? new Step(`unlink(${from}, ${to})`, async (model, real) => {
            const expected = model.unlink(from, to);
            const there = await expectOutcome(`unlink`, expected, () => real.longship.unlink(from, to));
            if ('value' in expected && there !== expected.value)
              throw new ModelMismatch(`unlink(${from}, ${to}) said ${there}, not ${expected.value}`);
          })
        : new Step(`link(${from}, ${to}, ${show(reason)})`, async (model, real) => {
            await expectOutcome(`link(${from}, ${to})`, model.link(from, to, reason), () =>
              real.longship.link(from, to, reason),
            );
          }),
    );
}

function targetArb(switches: ModelSwitches) {
  const inside = fc.constantFrom(
    undefined,
    'viking://resources/a',
    'viking://resources/a/b',
    'viking://user/memories/a',
    'viking://agent/memories/sessions/s1',
    'viking://agent/skills',
  );
  return switches.outsideRootTargets
    ? fc.oneof(
        { weight: 8, arbitrary: inside },
        { weight: 1, arbitrary: fc.constantFrom('viking://evil', 'viking://user') },
      )
    : inside;
}

/** Waits for the job, and (unless switched off) for the parents' refresh the queue runs after it. */
async function ingested(real: RealSystem, job: PromiseLike<unknown>, switches: ModelSwitches): Promise<void> {
  try {
    await job;
  } finally {
    // A failed job schedules the refresh too.
    if (!switches.verifyBeforeRefresh) await real.longship.waitProcessed();
  }
}

function addDocCmd(switches: ModelSwitches) {
  return fc
    .record({
      target: targetArb(switches),
      name: fc.constantFrom('x.md', 'notes.txt', 'a'),
      content: nonEmptyText,
    })
    .map(
      ({ target, name, content }) =>
        new Step(
          `addResource(${show(content)}, { name: ${show(name)}, target: ${show(target)} })`,
          async (model, real) => {
            const expected = model.addResource((target ?? 'viking://resources') as VikingUri, name, content);
            const options = { name, ...(target ? { target } : {}) };
            await expectOutcome(`addResource(${name} under ${target})`, expected, () =>
              ingested(real, real.longship.addResource(content, options), switches),
            );
          },
        ),
    );
}

const folderPaths = ['p.md', 'q.txt', 'sub/r.md', 'sub/deep/s.txt'];

function addFolderCmd(switches: ModelSwitches) {
  return fc
    .record({
      target: targetArb(switches),
      name: fc.constantFrom('f', 'a', 'x.md'),
      files: fc.uniqueArray(fc.tuple(fc.constantFrom(...folderPaths), nonEmptyText), {
        minLength: 1,
        maxLength: 4,
        selector: ([path]) => path,
      }),
    })
    .map(
      ({ target, name, files }) =>
        new Step(
          `addResource(folder ${show(files)}, { name: ${show(name)}, target: ${show(target)} })`,
          async (model, real) => {
            const expected = model.addResource(
              (target ?? 'viking://resources') as VikingUri,
              name,
              new Map(files),
            );
            const entries = files.map(([path, content]) => ({ path, content }));
            const options = { name, ...(target ? { target } : {}) };
            await expectOutcome(`addResource(folder ${name} under ${target})`, expected, () =>
              ingested(real, real.longship.addResource(entries, options), switches),
            );
          },
        ),
    );
}

function addSkillCmd(switches: ModelSwitches) {
  return fc.record({ name: fc.constantFrom('a', 'Write RFC', 'tabs'), content: nonEmptyText }).map(
    ({ name, content }) =>
      new Step(`addSkill(${show(name)}, ${show(content)})`, async (model, real) => {
        const expected = model.addSkill(name, content);
        await expectOutcome(`addSkill(${name})`, expected, () =>
          ingested(real, real.longship.addSkill({ name, description: `How to ${name}.`, content }), switches),
        );
      }),
  );
}

const skillNames = ['a', 'write-rfc', 'Write RFC'];

/** A skill in the Agent Skills format: a SKILL.md alone, or a folder with it. */
function addSkillFolderCmd(switches: ModelSwitches) {
  return fc
    .record({
      name: fc.constantFrom(...skillNames),
      body: nonEmptyText,
      files: fc.uniqueArray(fc.tuple(fc.constantFrom('ref.md', 'scripts/run.py'), nonEmptyText), {
        maxLength: 2,
        selector: ([path]) => path,
      }),
    })
    .map(
      ({ name, body, files }) =>
        new Step(`addSkill(SKILL.md of ${show(name)} with ${show(files)})`, async (model, real) => {
          const text = `---\nname: ${JSON.stringify(name)}\ndescription: How to ${name}.\n---\n${body}`;
          const expected = model.addSkillFolder(name, text, new Map(files));
          const input =
            files.length === 0 ? text : { files: Object.fromEntries([['SKILL.md', text], ...files]) };
          await expectOutcome(`addSkill(SKILL.md of ${name})`, expected, () =>
            ingested(real, real.longship.addSkill(input), switches),
          );
        }),
    );
}

function removeSkillCmd(switches: ModelSwitches) {
  return fc.constantFrom(...skillNames).map(
    (name) =>
      new Step(`removeSkill(${show(name)})`, async (model, real) => {
        const expected = model.removeSkill(name);
        let removed: number | undefined;
        await expectOutcome(`removeSkill(${name})`, expected, () =>
          ingested(
            real,
            real.longship.removeSkill(name).then((result) => {
              removed = result.removed;
            }),
            switches,
          ),
        );
        if ('value' in expected && removed !== expected.value)
          throw new ModelMismatch(`removeSkill(${name}) removed ${removed} nodes, not ${expected.value}`);
      }),
  );
}

function messageCmd() {
  return fc
    .record({
      session: fc.constantFrom('s1', 's2'),
      role: fc.constantFrom('user', 'assistant'),
      text: text(1),
    })
    .map(
      ({ session, role, text }) =>
        new Step(`session(${session}).addMessage(${role}, ${show(text)})`, async (model, real) => {
          const expected = model.addMessage(session, role, text.trim());
          await expectOutcome(`session(${session}).addMessage()`, expected, () =>
            real.session(session).addMessage(role as 'user' | 'assistant', text),
          );
          // What is pending is what the store holds: the same after a reopen, a crash or an mv.
          const stored = (await real.session(session).messages()).map(messageText);
          const node = model.nodes.get(join(SESSIONS, session));
          const pending = node?.kind === 'dir' ? (node.pending ?? []).map((m) => m.text) : [];
          if (JSON.stringify(stored) !== JSON.stringify(pending))
            throw new ModelMismatch(`session(${session}) has pending ${show(stored)}, not ${show(pending)}`);
        }),
    );
}

function commitCmd() {
  return fc.constantFrom('s1', 's2').map(
    (session) =>
      new Step(`session(${session}).commit()`, async (model, real) => {
        const expected = model.commitSession(session);
        const result = await expectOutcome(`session(${session}).commit()`, expected, () =>
          real.session(session).commit(),
        );
        if ('value' in expected && result?.archive !== expected.value)
          throw new ModelMismatch(
            `session(${session}).commit() archived ${result?.archive}, not ${expected.value}`,
          );
      }),
  );
}

function findCmd() {
  return fc
    .record({
      query: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }),
      mode: fc.constantFrom('quick', 'thinking') as fc.Arbitrary<'quick' | 'thinking'>,
      limit: fc.integer({ min: 1, max: 12 }),
    })
    .map(
      ({ query, mode, limit }) =>
        new Step(
          `find(${show(query.join(' '))}, { mode: ${mode}, limit: ${limit} })`,
          async (model, real) => {
            const label = `find(${query.join(' ')})`;
            const result = await real.longship.find(query.join(' '), { mode, limit });
            checkFound(model, result, label);
            if (result.total > limit)
              throw new ModelMismatch(`${label}: ${result.total} results, limit ${limit}`);
          },
        ),
    );
}

function searchCmd() {
  return fc
    .record({ uri: inRoots, word: fc.constantFrom(...words), glob: fc.boolean() })
    .map(({ uri, word, glob }) =>
      glob
        ? new Step(`glob('**', { uri: ${uri} })`, async (model, real) => {
            const found = await real.longship.glob('**', { uri });
            if (JSON.stringify(found) !== JSON.stringify(model.below(uri)))
              throw new ModelMismatch(`glob('**', ${uri}): ${show(found)}, not ${show(model.below(uri))}`);
          })
        : new Step(`grep(${show(word)}, { uri: ${uri} })`, async (model, real) => {
            const expected = model.grep(uri, word);
            const found = await expectOutcome(`grep(${word}, ${uri})`, expected, () =>
              real.longship.grep(word, { uri }),
            );
            const lines = found?.map((m) => `${m.uri}:${m.line}:${m.text}`);
            if ('value' in expected && JSON.stringify(lines) !== JSON.stringify(expected.value))
              throw new ModelMismatch(`grep(${word}, ${uri}): ${show(lines)}, not ${show(expected.value)}`);
          }),
    );
}

function reopenCmd() {
  return fc.constantFrom('close', 'crash').map(
    (how) =>
      new Step(
        how === 'close' ? 'close() and reopen' : 'crash and reopen',
        async (_model, real) => {
          // The queue may still be refreshing directories after a job settled: the promise is
          // about what was committed, so compare once nothing is running.
          await real.longship.waitProcessed();
          const found = await findProbes(real.longship);
          if (how === 'close') await real.reopen();
          else await real.crash();
          sameFinds(found, await findProbes(real.longship), how);
        },
        true,
      ),
  );
}

/** A pause of a few milliseconds: the indexes' snapshot timers may fire. */
function idleCmd() {
  return fc.integer({ min: 0, max: 3 }).map(
    (ms) =>
      new Step(`idle ${ms} ms`, async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
      }),
  );
}

/** Every command, weighted towards the writes. */
export function modelCommands(switches: ModelSwitches) {
  return [
    writeCmd(),
    writeCmd(),
    writeCmd(),
    mkdirCmd(),
    mkdirCmd(),
    rmCmd(),
    mvCmd(),
    mvCmd(),
    linkCmd(),
    addDocCmd(switches),
    addFolderCmd(switches),
    addSkillCmd(switches),
    addSkillFolderCmd(switches),
    removeSkillCmd(switches),
    messageCmd(),
    messageCmd(),
    commitCmd(),
    findCmd(),
    searchCmd(),
    reopenCmd(),
    idleCmd(),
  ];
}
