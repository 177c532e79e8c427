// The worker runs only what its table (src/worker/remote-api.ts) names. A page that skips the proxy
// and sends its own comlink messages, over a real thread, is refused with INVALID_ARGUMENT naming
// what it asked for, and nothing runs: methods the engine has but the table leaves out (one that
// writes, `close`), what every object has (`constructor`, `__proto__`, `toString`), names that are
// not methods at all, paths of more than one name; and comlink's own reflection (reading, setting,
// constructing along a path, new endpoints), on the connection and on the engine alike.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import { remoteApi, remoteMethod } from '../../src/worker/remote-api.js';
import { registerThrowHandler } from '../../src/worker/wire.js';
import { openTestLongship } from './fixture.js';
import { bundleThreadScript } from './thread-script.js';

const R = 'viking://resources';
const usearch = new URL('../../wasm/dist/usearch.wasm', import.meta.url).href;
let folder: string;
let script: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'longship-refusal-'));
  script = join(folder, 'thread.mjs');
  await bundleThreadScript(new URL('./refusal-thread.ts', import.meta.url), script);
  registerThrowHandler();
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

type Port = MessagePort;

/** The reply to a raw comlink message, decoded as comlink would (a thrown value rejects). */
function send(port: Port, message: Record<string, unknown>): Promise<unknown> {
  const id = `raw-${Math.random()}`;
  return new Promise((resolve, reject) => {
    const listener = (event: MessageEvent) => {
      if (event.data?.id !== id) return;
      port.removeEventListener('message', listener);
      const reply = event.data as { type: string; name?: string; value: unknown };
      if (reply.type === 'HANDLER' && reply.name === 'throw') {
        try {
          Comlink.transferHandlers.get('throw')!.deserialize(reply.value);
        } catch (error) {
          reject(error);
        }
      }
      resolve(reply.value);
    };
    port.addEventListener('message', listener);
    port.start();
    port.postMessage({ ...message, id });
  });
}

/** A call as the page's proxy makes it: an APPLY of one name, its arguments as one array. */
const apply = (port: Port, method: unknown, args: unknown[] = []) =>
  send(port, { type: 'APPLY', path: [method], argumentList: [{ type: 'RAW', value: args }] });

interface ServedReply {
  __longship: string;
  port: Port;
  data: Record<string, unknown>;
}

/** Opens the connection on `root` and returns the port the engine is served on. */
async function openRaw(root: Port, options: Record<string, unknown> = {}): Promise<Port> {
  const opened = (await apply(root, 'open', [options])) as { longship: ServedReply };
  expect(opened.longship.__longship).toBe('longship');
  return opened.longship.port;
}

async function refusal(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
  return error as LongshipError;
}

describe('the worker’s table of remote methods', () => {
  it('refuses what the table does not name, over a real thread, and runs none of it', async () => {
    const { port1, port2 } = new MessageChannel();
    const thread = new Worker(script, { workerData: { port: port1 }, transferList: [port1 as never] });
    const engine = await openRaw(port2, { usearch });
    try {
      await apply(engine, 'write', [`${R}/kept.md`, 'Written through the table.']);

      // The engine has these; the table leaves them out.
      for (const method of ['wipe', 'close']) {
        expect((await refusal(apply(engine, method))).message).toContain(`'${method}'`);
      }
      const names = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
      const notMethods = [
        'store',
        'indexes',
        'embedder',
        'persistent',
        'store.commit',
        'Symbol.iterator',
        '',
      ];
      for (const method of [...names, ...notMethods]) {
        expect((await refusal(apply(engine, method, [`${R}/x.md`]))).message).toContain(`'${method}'`);
      }
      for (const method of [42, undefined, null, ['write'], { toString: 'write' }]) {
        await refusal(apply(engine, method, [`${R}/x.md`, 'text']));
      }
      // A path of more than one name, as comlink's proxies send for `longship.store.commit()`.
      const commit = await refusal(
        send(engine, { type: 'APPLY', path: ['store', 'commit'], argumentList: [] }),
      );
      expect(commit.message).toContain("'store.commit'");
      await refusal(send(engine, { type: 'APPLY', path: ['write', 'call'], argumentList: [] }));

      // A session the engine returned: its table methods run, the rest do not.
      const session = (await apply(engine, 'session', ['chat'])) as ServedReply;
      expect(session.__longship).toBe('session');
      expect(session.data).toMatchObject({ id: 'chat' });
      expect(Object.keys(session.data).sort()).toEqual(['id', 'uri']);
      await apply(session.port, 'addMessage', ['user', 'hello']);
      for (const method of ['drop', 'constructor', '__proto__', 'toString']) {
        expect((await refusal(apply(session.port, method))).message).toMatch(/the session .*has no method/);
      }
      // A function a method returned is called as itself, never by a method name.
      const unsubscribe = (await apply(engine, 'onProgress', [])) as ServedReply;
      expect(unsubscribe.__longship).toBe('fn');
      await refusal(apply(unsubscribe.port, 'call'));
      await refusal(apply(unsubscribe.port, 'apply'));

      // Nothing was written but the one write, and the engine is still open (no 'close' ran).
      const listed = (await apply(engine, 'ls', [R])) as Array<{ uri: string }>;
      expect(listed.map((node) => node.uri)).toEqual([`${R}/kept.md`]);
      expect(((await apply(engine, 'verify')) as { problems: unknown[] }).problems).toEqual([]);
      await apply(port2, 'close');
    } finally {
      port2.close();
      await thread.terminate();
    }
  });

  it('answers comlink’s reflection with INVALID_ARGUMENT, and changes nothing', async () => {
    const { port1, port2 } = new MessageChannel();
    createLongshipHost({ locks: null, open: openTestLongship }).connect(port1);
    const engine = await openRaw(port2);
    try {
      for (const port of [port2, engine]) {
        // comlink's own proxy, typed loosely: every path it builds is a message to the worker.
        const page = Comlink.wrap(port) as unknown as Record<string, Record<string, PromiseLike<unknown>>>;
        const method = port === engine ? 'write' : 'open';
        // GET along a path: a property, the Function constructor behind a method, a method itself.
        await refusal(Promise.resolve(page[method]!.constructor!));
        await refusal(Promise.resolve(page[method]!.length!));
        await refusal(send(port, { type: 'GET', path: [method] }));
        await refusal(send(port, { type: 'GET', path: ['__proto__'] }));
        // CONSTRUCT, an APPLY of a path longer than one name, a new ENDPOINT.
        await refusal(new (page[method] as unknown as new () => Promise<unknown>)());
        await refusal((page[method]!.call as unknown as () => Promise<unknown>)());
        await refusal(Comlink.wrap(port)[Comlink.createEndpoint]());
        // SET: the worker's Object.prototype (here, this realm's) stays as it was; so do the methods.
        const polluting = ['__proto__', '__proto__', 'polluted'];
        await refusal(send(port, { type: 'SET', path: polluting, value: { type: 'RAW', value: 1 } }));
        await refusal(send(port, { type: 'SET', path: [method], value: { type: 'RAW', value: 1 } }));
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        // Each kind of message on an unlisted path, as a page without the proxy would send it.
        for (const type of ['GET', 'SET', 'APPLY', 'CONSTRUCT']) {
          for (const path of [['store', 'commit'], ['__proto__'], ['constructor'], ['store']]) {
            const value = { type: 'RAW', value: 1 };
            await refusal(send(port, { type, path, value, argumentList: [{ type: 'RAW', value: [] }] }));
          }
        }
        // A thrown value where an argument goes: refused before comlink would throw it in the worker.
        const thrown = { type: 'HANDLER', name: 'throw', value: {} };
        await refusal(send(port, { type: 'APPLY', path: [method], argumentList: [thrown] }));
      }
      // The connection still serves its calls.
      expect(await apply(engine, 'ls', [R])).toEqual([]);
      await apply(engine, 'write', [`${R}/a.md`, 'Alpha.']);
      expect(await apply(engine, 'read', [`${R}/a.md`])).toBe('Alpha.');
      await apply(port2, 'close');
    } finally {
      port2.close();
    }
  });

  it('looks up only the table’s own names, never an inherited property', () => {
    expect(remoteMethod('longship', 'addResource')).toBe('job');
    expect(remoteMethod('longship', 'session')).toBe('session');
    expect(remoteMethod('session', 'commit')).toBe('job');
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'close', 'methods']) {
      expect(() => remoteMethod('longship', name)).toThrow(LongshipError);
    }
    expect(Object.keys(remoteApi)).toEqual(['longship', 'session']);
  });
});
