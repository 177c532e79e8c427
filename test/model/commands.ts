// The model test's commands (fast-check model-based testing): each draws an API call, asks the model
// what must happen, makes the call, holds it to the model, then checks the whole tree and verify().
// The tree's calls, ingestion, find/grep/glob and reopening are here; the skills', the sessions' and
// context()'s in files of their own; modelCommands() weighs them all.

import fc from 'fast-check';
import type { VikingUri } from '../../src/context/uri.js';
import { anyUri, inRoots, longText, nonEmptyText, query, sessionIds, text, words } from './arbitraries.js';
import { checkFound, expectOutcome, findProbes, ModelMismatch, sameFinds } from './checks.js';
import { contextCmd } from './context-command.js';
import {
  badSessionIdCmd,
  checkMessages,
  checkSessionList,
  commitCmd,
  concurrentMessagesCmd,
  deleteSessionCmd,
  messageCmd,
  openSessionCmd,
  readSessionsCmd,
  searchWithSessionCmd,
  usedCmd,
} from './session-commands.js';
import { addSkillCmd, addSkillFolderCmd, readSkillsCmd, removeSkillCmd } from './skill-commands.js';
import { ingested, Step, show } from './step.js';
import type { ModelSwitches } from './switches.js';

export { counter } from './step.js';

function writeCmd() {
  const content = fc.oneof({ weight: 4, arbitrary: text(0) }, { weight: 1, arbitrary: longText });
  return fc.record({ uri: anyUri, content, parents: fc.boolean() }).map(
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
    'viking://user/default/memories/a',
    'viking://user/default/sessions/s1',
    'viking://agent/skills',
  );
  return switches.outsideRootTargets
    ? fc.oneof(
        { weight: 8, arbitrary: inside },
        { weight: 1, arbitrary: fc.constantFrom('viking://evil', 'viking://user') },
      )
    : inside;
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

function findCmd() {
  return fc
    .record({
      query,
      mode: fc.constantFrom('quick', 'thinking') as fc.Arbitrary<'quick' | 'thinking'>,
      limit: fc.integer({ min: 1, max: 12 }),
    })
    .map(
      ({ query, mode, limit }) =>
        new Step(`find(${show(query)}, { mode: ${mode}, limit: ${limit} })`, async (model, real) => {
          const label = `find(${query})`;
          const result = await real.longship.find(query, { mode, limit });
          checkFound(model, result, label);
          if (result.total > limit)
            throw new ModelMismatch(`${label}: ${result.total} results, limit ${limit}`);
        }),
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
        async (model, real) => {
          // The queue may still be refreshing directories after a job settled: the promise is
          // about what was committed, so compare once nothing is running.
          await real.longship.waitProcessed();
          const found = await findProbes(real.longship);
          if (how === 'close') await real.reopen();
          else await real.crash();
          // Auto-commit policies went with the Session objects; the sessions' state is the store's.
          model.sessions.autoCommit.clear();
          sameFinds(found, await findProbes(real.longship), how);
          for (const id of sessionIds) await checkMessages(model, real, id, how);
          await checkSessionList(model, real, how);
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
    readSkillsCmd(),
    openSessionCmd(),
    openSessionCmd(),
    messageCmd(),
    messageCmd(),
    concurrentMessagesCmd(switches),
    commitCmd(),
    usedCmd(),
    readSessionsCmd(),
    deleteSessionCmd(),
    badSessionIdCmd(),
    findCmd(),
    searchCmd(),
    searchWithSessionCmd(),
    contextCmd(switches),
    contextCmd(switches),
    reopenCmd(),
    idleCmd(),
  ];
}
