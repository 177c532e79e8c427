// The model test's session calls (docs/guide/sessions.md): sessions opened with and without an auto-commit
// policy, messages of every role (text, context and tool parts, a speaker's name, a time), several
// added at once, commits by hand and automatic, used(), the listing, reading and deleting calls,
// and search() with a session. After each, what the store holds is what the model has.

import fc from 'fast-check';
import type { VikingUri } from '../../src/context/uri.js';
import { estimateTokens } from '../../src/embed/chunk.js';
import type { Message, MessagePart, MessageRole } from '../../src/session/message.js';
import type { CommitOutcome } from '../../src/session/session.js';
import { inRoots, query, sessionId, text } from './arbitraries.js';
import { checkFound, expectOutcome, ModelMismatch, same } from './checks.js';
import { archivedText, type ModelMessage } from './session-layout.js';
import type { SessionsModel } from './session-model.js';
import { Step, show } from './step.js';
import type { ModelSwitches } from './switches.js';
import type { RealSystem } from './system.js';
import type { TreeModel } from './tree-model.js';

const roles: readonly MessageRole[] = ['user', 'assistant', 'system', 'tool'];

/** A message's parts: mostly a string, sometimes text with the context used or a tool call. */
const partsArb: fc.Arbitrary<string | MessagePart[]> = fc.oneof(
  { weight: 4, arbitrary: text(1) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(text(1), fc.constantFrom('viking://resources/a', 'viking://resources/x.md'))
      .map(([t, uri]): MessagePart[] => [
        { type: 'context', uri },
        { type: 'text', text: t },
      ]),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(text(1), fc.constantFrom('ok', 'error')).map(([t, status]): MessagePart[] => [
      { type: 'text', text: t },
      { type: 'tool', name: 'grep', input: { pattern: 'river' }, output: 'river: 2 lines', status },
    ]),
  },
);

const messageArb = fc.record({
  role: fc.constantFrom(...roles),
  parts: partsArb,
  name: fc.option(fc.constantFrom('Ana', 'Bo'), { nil: undefined }),
  at: fc.option(fc.integer({ min: 0, max: 2 ** 41 }), { nil: undefined }),
});
type DrawnMessage = typeof messageArb extends fc.Arbitrary<infer T> ? T : never;

const modelMessage = ({ role, parts, name, at }: DrawnMessage): ModelMessage => ({
  role,
  parts: typeof parts === 'string' ? [{ type: 'text', text: parts }] : parts,
  ...(name === undefined ? {} : { name }),
  ...(at === undefined ? {} : { at }),
});

const optionsOf = ({ name, at }: DrawnMessage) => ({
  ...(name === undefined ? {} : { name }),
  ...(at === undefined ? {} : { at }),
});

/** A stored message as the model has it: its time only where the call gave one. */
function asModel(message: Message, withTime: boolean): ModelMessage {
  return {
    role: message.role,
    parts: message.parts,
    ...(message.name === undefined ? {} : { name: message.name }),
    ...(withTime ? { at: message.at } : {}),
  };
}

/** messages() of `id` through a new Session object: the store's pending messages are the model's. */
export async function checkMessages(model: TreeModel, real: RealSystem, id: string, label: string) {
  const pending = model.sessions.state(id).pending;
  const stored = await real.longship.session(id).messages();
  same(
    stored.map((m, i) => asModel(m, pending[i]?.at !== undefined)),
    pending,
    `${label}: session(${id}).messages()`,
  );
}

/** listSessions(): the model's session directories, their pending messages and archives counted. */
export async function checkSessionList(model: TreeModel, real: RealSystem, label: string) {
  const listed = (await real.longship.listSessions())
    .map(({ id, uri, pending, archives }) => ({ id, uri: uri as VikingUri, pending, archives }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  same(listed, model.sessions.list(), `${label}: listSessions()`);
}

/** Whether the policy commits now: enough messages, or enough tokens as chunking estimates them. */
function due(policy: { messages?: number; tokens?: number } | undefined, pending: readonly ModelMessage[]) {
  if (!policy) return false;
  const tokens = pending.reduce((sum, m) => sum + estimateTokens(archivedText(m)), 0);
  return (
    (policy.messages !== undefined && pending.length >= policy.messages) ||
    (policy.tokens !== undefined && tokens >= policy.tokens)
  );
}

/** A commit's outcome against the model's: the archive it wrote, or the code it failed with. */
function sameOutcome(outcome: CommitOutcome, expected: ReturnType<SessionsModel['commit']>, what: string) {
  if ('code' in expected) {
    if (outcome.status !== 'failed' || !outcome.error?.startsWith(`${expected.code}:`))
      throw new ModelMismatch(`${what}: ${show(outcome)}; the model failed with ${expected.code}`);
  } else if (outcome.status !== 'done' || outcome.result?.archive !== expected.value) {
    throw new ModelMismatch(`${what}: ${show(outcome)}; the model archived ${expected.value}`);
  }
}

/** `session(id, { autoCommit })`: later calls for `id` go through this object and its policy. */
export function openSessionCmd() {
  const policy = fc.oneof(
    fc.constant(undefined),
    fc.integer({ min: 1, max: 4 }).map((messages) => ({ messages })),
    fc.integer({ min: 4, max: 40 }).map((tokens) => ({ tokens })),
  );
  return fc.record({ id: sessionId, policy }).map(
    ({ id, policy }) =>
      new Step(`session(${id}, ${show(policy ? { autoCommit: policy } : {})})`, async (model, real) => {
        real.openSession(id, policy ? { autoCommit: policy } : undefined);
        if (policy) model.sessions.autoCommit.set(id, policy);
        else model.sessions.autoCommit.delete(id);
      }),
  );
}

/** Ids the API refuses before anything is read (docs/guide/sessions.md, "Listing, reading, checking, deleting"). */
export function badSessionIdCmd() {
  return fc
    .record({
      bad: fc.constantFrom(
        { id: 'a/b', code: 'INVALID_ARGUMENT' },
        { id: '..', code: 'INVALID_URI' },
        { id: 'x%41', code: 'INVALID_ARGUMENT' },
      ),
      call: fc.constantFrom('session', 'sessionInfo', 'deleteSession'),
    })
    .map(
      ({ bad: { id, code }, call }) =>
        new Step(`${call}(${show(id)})`, async (_model, real) => {
          await expectOutcome(`${call}(${id})`, { code }, async () => {
            if (call === 'session') return real.longship.session(id);
            return call === 'sessionInfo' ? real.longship.sessionInfo(id) : real.longship.deleteSession(id);
          });
        }),
    );
}

export function messageCmd() {
  return fc.record({ id: sessionId, message: messageArb }).map(
    ({ id, message }) =>
      new Step(`session(${id}).addMessage(${show(message)})`, async (model, real) => {
        const expected = model.sessions.addMessage(id, modelMessage(message));
        await expectOutcome(`session(${id}).addMessage()`, expected, () =>
          real.session(id).addMessage(message.role, message.parts, optionsOf(message)),
        );
        // What is pending is what the store holds: the same after a reopen, a crash or an mv.
        await checkMessages(model, real, id, 'addMessage');
        const committed =
          'value' in expected && due(model.sessions.autoCommit.get(id), model.sessions.state(id).pending);
        const outcomes = (await real.newCommits(id)).filter((outcome) => outcome.auto);
        if (outcomes.length !== (committed ? 1 : 0))
          throw new ModelMismatch(
            `session(${id}): ${outcomes.length} auto-commits, not ${committed ? 1 : 0}`,
          );
        if (committed) sameOutcome(outcomes[0]!, model.sessions.commit(id), `session(${id})'s auto-commit`);
      }),
  );
}

/**
 * Messages added at once, each through a Session object of its own: to one session, or (with
 * `sessionsAtOnce` on) to several.
 */
export function concurrentMessagesCmd(switches: ModelSwitches) {
  return fc
    .array(fc.record({ id: sessionId, message: messageArb }), { minLength: 2, maxLength: 3 })
    .map((drawn) => (switches.sessionsAtOnce ? drawn : drawn.map((add) => ({ ...add, id: drawn[0]!.id }))))
    .map(
      (adds) =>
        new Step(
          `at once: ${adds.map(({ id }) => `session(${id}).addMessage()`).join(', ')}`,
          async (model, real) => {
            const expected = adds.map(({ id, message }) =>
              model.sessions.addMessage(id, modelMessage(message)),
            );
            await Promise.all(
              adds.map(({ id, message }, i) =>
                expectOutcome(`session(${id}).addMessage() at once`, expected[i]!, () =>
                  real.longship.session(id).addMessage(message.role, message.parts, optionsOf(message)),
                ),
              ),
            );
            // Each lands once; the order of one session's concurrent messages is the store's to pick.
            for (const id of new Set(adds.map((add) => add.id))) {
              const landed = adds.filter((add, i) => add.id === id && 'value' in expected[i]!).length;
              const pending = model.sessions.state(id).pending;
              const mine = pending.slice(pending.length - landed);
              if (landed > 0) {
                const stored = (await real.longship.session(id).messages()).slice(-landed);
                const order = stored.map((m) =>
                  mine.find((l) => show(asModel(m, l.at !== undefined)) === show(l)),
                );
                // Two equal messages find the same one: the model's order is as good as any then.
                if (order.every((m) => m !== undefined) && new Set(order).size === landed)
                  model.sessions.reorderLast(id, order as ModelMessage[]);
              }
              await checkMessages(model, real, id, 'addMessage() at once');
            }
          },
        ),
    );
}

export function commitCmd() {
  return sessionId.map(
    (id) =>
      new Step(`session(${id}).commit()`, async (model, real) => {
        const expected = model.sessions.commit(id);
        const result = await expectOutcome(`session(${id}).commit()`, expected, () =>
          real.session(id).commit(),
        );
        if ('value' in expected && result?.archive !== expected.value)
          throw new ModelMismatch(
            `session(${id}).commit() archived ${result?.archive}, not ${expected.value}`,
          );
        const outcomes = await real.newCommits(id);
        if (outcomes.length !== 1 || outcomes[0]!.auto)
          throw new ModelMismatch(`session(${id}).commit(): waitCommitted() said ${show(outcomes)}`);
        sameOutcome(outcomes[0]!, expected, `session(${id}).commit()'s outcome`);
      }),
  );
}

/** used(uris): how many exist; unknown ones are kept too; a string that is no URI is refused. */
export function usedCmd() {
  const uri = fc.oneof(
    { weight: 8, arbitrary: inRoots as fc.Arbitrary<string> },
    { weight: 1, arbitrary: fc.constant('viking://resources/never-written') },
    { weight: 1, arbitrary: fc.constant('not a uri') },
  );
  return fc.record({ id: sessionId, uris: fc.uniqueArray(uri, { maxLength: 3 }) }).map(
    ({ id, uris }) =>
      new Step(`session(${id}).used(${show(uris)})`, async (model, real) => {
        const expected = uris.includes('not a uri')
          ? { code: 'INVALID_URI' }
          : model.sessions.used(id, uris as VikingUri[]);
        const count = await expectOutcome(`session(${id}).used()`, expected, () =>
          real.session(id).used(uris),
        );
        if ('value' in expected && count !== expected.value)
          throw new ModelMismatch(`session(${id}).used() said ${count} existed, not ${expected.value}`);
      }),
  );
}

/** listSessions(), sessionInfo(), sessionExists() and messages() held to the model. */
export function readSessionsCmd() {
  return fc.record({ id: sessionId, call: fc.constantFrom('list', 'info', 'exists', 'messages') }).map(
    ({ id, call }) =>
      new Step(call === 'list' ? 'listSessions()' : `${call}(${id})`, async (model, real) => {
        if (call === 'list') return checkSessionList(model, real, 'listSessions()');
        if (call === 'messages') return checkMessages(model, real, id, 'messages()');
        const expected = model.sessions.info(id);
        if (call === 'exists') {
          same(await real.longship.sessionExists(id), 'value' in expected, `sessionExists(${id})`);
          return;
        }
        const info = await expectOutcome(`sessionInfo(${id})`, expected, () => real.longship.sessionInfo(id));
        if (info && 'value' in expected) {
          const { pending, archives, uri } = info;
          same({ id: info.id, uri, pending, archives }, expected.value, `sessionInfo(${id})`);
        }
      }),
  );
}

export function deleteSessionCmd() {
  return sessionId.map(
    (id) =>
      new Step(`deleteSession(${id})`, async (model, real) => {
        const expected = model.sessions.delete(id);
        const deleted = await expectOutcome(`deleteSession(${id})`, expected, () =>
          real.longship.deleteSession(id),
        );
        if (deleted && 'value' in expected) same(deleted, expected.value, `deleteSession(${id})`);
      }),
  );
}

/** search() with a session: without an LLM the session changes nothing (docs/guide/retrieval.md). */
export function searchWithSessionCmd() {
  return fc
    .record({
      id: sessionId,
      query,
      mode: fc.constantFrom('quick', 'thinking') as fc.Arbitrary<'quick' | 'thinking'>,
      limit: fc.integer({ min: 1, max: 12 }),
    })
    .map(
      ({ id, query, mode, limit }) =>
        new Step(
          `search(${show(query)}, { session: ${id}, mode: ${mode}, limit: ${limit} })`,
          async (model, real) => {
            const label = `search(${query}, session ${id})`;
            const withSession = await real.longship.search(query, { session: real.session(id), mode, limit });
            checkFound(model, withSession, label);
            const without = await real.longship.search(query, { mode, limit });
            const lists = (r: typeof without) => [r.memories, r.resources, r.skills];
            same(lists(withSession), lists(without), `${label}: against search() without the session`);
          },
        ),
    );
}
