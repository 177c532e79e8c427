// Namespaces as OpenViking has them (docs/guide/namespaces.md): a space per user and per agent, the
// home alias viking://~, the classification of every URI form OpenViking's namespace code names,
// and the id-less forms it removed refused with their replacement.
import { describe, expect, it } from 'vitest';
import { checkNamespace, expandHome, namespaceRoots } from '../../src/context/namespace.js';
import { contextTypeOf, isContainer, parseUri } from '../../src/context/uri.js';
import { openLongship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import { bagOfWordsEmbedder } from '../retrieve/fixture.js';

const embedder = bagOfWordsEmbedder();
const open = async (options: { user?: string; agent?: string } = {}) =>
  openLongship({
    store: await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } }),
    embedder,
    ...options,
  });

async function failure(run: () => Promise<unknown>): Promise<LongshipError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(LongshipError);
    return error as LongshipError;
  }
  throw new Error('expected a failure');
}

describe('URI classification (OpenViking: classify_uri, by shape alone)', () => {
  it.each([
    ['viking://resources/project/docs/api.md', 'resource'],
    ['viking://user/alice/memories/preferences/coding', 'memory'],
    ['viking://user/alice/resources/docs', 'resource'],
    ['viking://user/alice/skills/search-web', 'skill'],
    ['viking://user/alice/peers/bob/memories/events/x', 'memory'],
    ['viking://user/alice/peers/bob/resources/notes', 'resource'],
    ['viking://user/alice/sessions/chat-1', 'memory'],
    ['viking://agent/skills/search-web', 'skill'],
    ['viking://agent/coder/memories/notes/x', 'memory'],
    ['viking://agent/coder/skills/x', 'skill'],
  ])('%s is a %s', (uri, type) => {
    expect(contextTypeOf(parseUri(uri))).toBe(type);
  });

  it.each([
    // Containers: directories above content, holding none themselves.
    ['viking://user', true],
    ['viking://user/alice', true],
    ['viking://user/alice/peers', true],
    ['viking://user/alice/peers/bob', true],
    ['viking://agent/coder', true],
    // Nothing: outside the spaces, or the id-less forms OpenViking removed.
    ['viking://elsewhere/x', false],
    ['viking://user/alice/notes', false],
    ['viking://user/memories/events/x', false],
    ['viking://agent/memories/notes/x', false],
  ])('%s holds no content (container: %s)', (uri, container) => {
    expect(contextTypeOf(parseUri(uri))).toBeUndefined();
    expect(isContainer(parseUri(uri))).toBe(container);
  });
});

describe('the home alias (OpenViking: viking://~ expands to the caller’s user root)', () => {
  const alice = checkNamespace({ user: 'alice' }, 'test');

  it('expands ~ as the first segment only, and leaves other URIs as given', () => {
    expect(expandHome('viking://~', alice)).toBe('viking://user/alice');
    expect(expandHome('viking://~/memories/note', alice)).toBe('viking://user/alice/memories/note');
    expect(expandHome('viking://resources/~/x', alice)).toBe('viking://resources/~/x');
    expect(expandHome('viking://user/bob/memories', alice)).toBe('viking://user/bob/memories');
  });

  it('refuses the uid-less forms with the replacement in the message', () => {
    for (const [old, hint] of [
      ['viking://user/memories/preferences/x', 'viking://~/memories/preferences/x'],
      ['viking://user/resources', 'viking://~/resources'],
      ['viking://agent/memories/notes', 'viking://agent/default/memories/notes'],
    ] as const) {
      let error: unknown;
      try {
        expandHome(old, alice);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LongshipError);
      expect((error as LongshipError).code).toBe('INVALID_URI');
      expect((error as LongshipError).message).toContain(hint);
    }
    expect(expandHome('viking://agent/skills/x', alice)).toBe('viking://agent/skills/x');
  });

  it('refuses ids that are not one segment, or are reserved', () => {
    for (const user of ['', '~', 'a/b', 'memories', 'sessions', '..', 'x%41', 42]) {
      expect(() => checkNamespace({ user: user as string }, 'test')).toThrow(LongshipError);
    }
    expect(() => checkNamespace({ agent: 'skills' }, 'test')).toThrow(/reserved/);
    expect(checkNamespace({}, 'test')).toEqual({ user: 'default', agent: 'default' });
  });

  it('searches a namespace’s own spaces and the shared ones', () => {
    const roots = namespaceRoots(checkNamespace({ user: 'alice', agent: 'coder' }, 'test'));
    expect(roots.memory).toEqual([
      'viking://user/alice/memories',
      'viking://agent/coder/memories',
      'viking://user/alice/sessions',
    ]);
    expect(roots.resource).toEqual(['viking://resources', 'viking://user/alice/resources']);
    expect(roots.skill[0]).toBe('viking://agent/skills');
  });
});

describe('an engine per namespace', () => {
  it('makes its namespace’s roots, resolves ~, and refuses the old forms with nothing written', async () => {
    const longship = await open({ user: 'alice', agent: 'coder' });
    expect(longship.namespace).toEqual({ user: 'alice', agent: 'coder' });
    expect((await longship.ls('viking://~')).map((n) => n.uri)).toEqual(['viking://user/alice/memories']);
    const info = await longship.write('viking://~/memories/preferences/tabs', 'Alice indents with tabs.', {
      parents: true,
    });
    expect(info.uri).toBe('viking://user/alice/memories/preferences/tabs');
    expect(info.contextType).toBe('memory');
    const seq = (await longship.store.meta()).seq;
    expect((await failure(() => longship.write('viking://user/memories/x', 'y'))).code).toBe('INVALID_URI');
    expect((await failure(() => longship.read('viking://user/memories/x'))).message).toContain(
      'viking://~/memories/x',
    );
    expect((await longship.store.meta()).seq).toBe(seq);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('keeps each user’s memories and sessions to that user, in one engine', async () => {
    const alice = await open({ user: 'alice' });
    const bob = await alice.as({ user: 'bob' });
    expect(bob.namespace).toEqual({ user: 'bob', agent: 'default' });
    expect(await alice.as({ user: 'bob' })).toBe(bob);
    await alice.write('viking://~/memories/entities/garden', 'Alice grows tomatoes in her garden.', {
      parents: true,
    });
    await bob.write('viking://~/memories/entities/garden', 'Bob grows roses in his garden.', {
      parents: true,
    });
    await alice.write('viking://resources/guide.md', 'Tomatoes and roses both like sun in the garden.');

    const memoriesOf = async (who: typeof alice) =>
      (await who.find('garden tomatoes roses', { limit: 10 })).memories.map((m) => m.uri);
    expect(await memoriesOf(alice)).toEqual(['viking://user/alice/memories/entities/garden']);
    expect(await memoriesOf(bob)).toEqual(['viking://user/bob/memories/entities/garden']);
    // The shared resources are everyone's.
    expect((await bob.find('garden sun', { limit: 5 })).resources.map((r) => r.uri)).toContain(
      'viking://resources/guide.md',
    );
    // An explicit URI reaches another user's space: namespaces separate, they do not guard.
    expect(await bob.read('viking://user/alice/memories/entities/garden')).toContain('tomatoes');

    await alice.session('chat').addMessage('user', 'Hello from Alice.');
    await bob.session('chat').addMessage('user', 'Hello from Bob.');
    expect(alice.session('chat').uri).toBe('viking://user/alice/sessions/chat');
    expect(await alice.session('chat').messages()).toMatchObject([{ role: 'user' }]);
    expect((await bob.session('chat').messages())[0]!.parts).toMatchObject([{ text: 'Hello from Bob.' }]);
    expect((await alice.listSessions()).map((s) => s.id)).toEqual(['chat']);
    expect((await failure(() => alice.as({ user: 'memories' }))).code).toBe('INVALID_ARGUMENT');
    expect((await failure(() => alice.as({ usr: 'carol' } as never))).message).toContain('usr');
    expect((await alice.verify()).problems).toEqual([]);
    await bob.close();
    await expect(alice.find('garden')).rejects.toThrow();
  });

  it('adds a user’s own resources at viking://~/resources, found by that user alone', async () => {
    const alice = await open({ user: 'alice' });
    const bob = await alice.as({ user: 'bob' });
    const added = await alice.addResource('Alice keeps her seed catalogue in the shed.', {
      target: 'viking://~/resources',
      name: 'seeds.md',
    });
    expect(added.uris).toEqual(['viking://user/alice/resources/seeds.md']);
    const resourcesOf = async (who: typeof alice) =>
      (await who.find('seed catalogue shed', { limit: 5 })).resources.map((r) => r.uri);
    expect(await resourcesOf(alice)).toEqual(['viking://user/alice/resources/seeds.md']);
    expect(await resourcesOf(bob)).toEqual([]);
    // Not a resource's place: refused, nothing written.
    const seq = (await alice.store.meta()).seq;
    for (const target of ['viking://~/memories', 'viking://agent/skills', 'viking://user/alice']) {
      expect((await failure(() => alice.addResource('x', { target, name: 'x.md' }))).code).toBe(
        'INVALID_ARGUMENT',
      );
    }
    expect((await alice.store.meta()).seq).toBe(seq);
    expect((await alice.verify()).problems).toEqual([]);
    await alice.close();
  });

  it('lets another user’s space be removed, never its own', async () => {
    const alice = await open({ user: 'alice' });
    const bob = await alice.as({ user: 'bob' });
    await bob.write('viking://~/memories/events/x', 'Bob went sailing.', { parents: true });
    expect((await failure(() => alice.rm('viking://user/alice', { recursive: true }))).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await alice.rm('viking://user/bob', { recursive: true })).toBeGreaterThan(1);
    expect((await alice.verify()).problems).toEqual([]);
    await alice.close();
  });
});
