// The model test's skill calls: addSkill of fields, of a SKILL.md and of a skill folder (with a name
// the format refuses too), removeSkill, and listSkills() and getSkill() held to the model
// (docs/guide/skills.md, "Reading skills").

import fc from 'fast-check';
import type { VikingUri } from '../../src/context/uri.js';
import type { Longship } from '../../src/engine.js';
import { nonEmptyText } from './arbitraries.js';
import { expectOutcome, ModelMismatch, same } from './checks.js';
import { ingested, Step, show } from './step.js';
import type { ModelSwitches } from './switches.js';
import type { ModelSkill, TreeModel } from './tree-model.js';

const describe = (name: string) => `How to ${name}.`;

export function addSkillCmd(switches: ModelSwitches) {
  return fc.record({ name: fc.constantFrom('a', 'Write RFC', 'tabs'), content: nonEmptyText }).map(
    ({ name, content }) =>
      new Step(`addSkill(${show(name)}, ${show(content)})`, async (model, real) => {
        const description = describe(name);
        const expected = model.addSkill(name, description, content);
        await expectOutcome(`addSkill(${name})`, expected, () =>
          ingested(real, real.longship.addSkill({ name, description, content }), switches),
        );
      }),
  );
}

const skillNames = ['a', 'write-rfc', 'Write RFC'];

/** A skill in the Agent Skills format: a SKILL.md alone, or a folder with it. */
export function addSkillFolderCmd(switches: ModelSwitches) {
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
          const text = `---\nname: ${JSON.stringify(name)}\ndescription: ${describe(name)}\n---\n${body}`;
          const expected = model.addSkillFolder(name, describe(name), text, new Map(files));
          const input =
            files.length === 0 ? text : { files: Object.fromEntries([['SKILL.md', text], ...files]) };
          await expectOutcome(`addSkill(SKILL.md of ${name})`, expected, () =>
            ingested(real, real.longship.addSkill(input), switches),
          );
        }),
    );
}

export function removeSkillCmd(switches: ModelSwitches) {
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

/** A skill's description where the model leaves it to the node's L0 (a node no addSkill wrote). */
async function described(longship: Longship, skill: ModelSkill): Promise<string> {
  return skill.description ?? longship.abstract(skill.uri);
}

/** listSkills(): the model's skills in URI order, named and described as their meta says. */
async function checkListSkills(model: TreeModel, longship: Longship): Promise<void> {
  // A directory's L0 (a skill's description when it has none of its own) is refreshed by the queue.
  await longship.waitProcessed();
  const listed = await longship.listSkills();
  const skills = model.listSkills();
  same(
    listed.map((s) => s.uri),
    skills.map((s) => s.uri),
    'listSkills(): URIs',
  );
  for (const [i, skill] of skills.entries()) {
    const found = listed[i]!;
    if (skill.name !== undefined) same(found.name, skill.name, `listSkills(): the name of ${skill.uri}`);
    same(
      found.description,
      await described(longship, skill),
      `listSkills(): the description of ${skill.uri}`,
    );
  }
}

/** getSkill(name): NOT_FOUND, INVALID_ARGUMENT (a SKILL.md overwritten) or the model's skill. */
async function checkGetSkill(model: TreeModel, longship: Longship, name: string): Promise<void> {
  await longship.waitProcessed();
  const expected = model.getSkill(name);
  const found = await expectOutcome(`getSkill(${name})`, expected, () => longship.getSkill(name));
  if (!found || !('value' in expected)) return;
  const skill = expected.value;
  const what = `getSkill(${name})`;
  same(found.uri as VikingUri, skill.uri, `${what}: uri`);
  if (skill.name !== undefined) same(found.name, skill.name, `${what}: name`);
  same(found.description, await described(longship, skill), `${what}: description`);
  same(found.body, skill.body, `${what}: body`);
  same(found.files, skill.files, `${what}: files`);
}

export function readSkillsCmd() {
  return fc
    .option(fc.constantFrom(...skillNames, 'tabs'), { nil: undefined })
    .map((name) =>
      name === undefined
        ? new Step('listSkills()', async (model, real) => checkListSkills(model, real.longship))
        : new Step(`getSkill(${show(name)})`, async (model, real) =>
            checkGetSkill(model, real.longship, name),
          ),
    );
}
