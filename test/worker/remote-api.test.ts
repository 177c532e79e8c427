// The worker runs only what its table (src/worker/remote-api.ts) names. A page that skips the proxy
// and sends its own requests, over a real thread, is refused with INVALID_ARGUMENT naming what it
// asked for, and nothing runs: methods the engine has but the table leaves out (one that writes,
// `close`), what every object has (`constructor`, `__proto__`, `toString`), names that are not
// methods at all; and comlink's own reflection (reading, setting, constructing along a path).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import {
  type CallRequest,
  type HostApi,
  type Reply,
  registerThrowHandler,
} from '../../src/worker/protocol.js';
import { remoteApi, remoteMethod } from '../../src/worker/remote-api.js';
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
  registerThrowHandler(Comlink.transferHandlers);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A page's raw end of a connection: HostApi over comlink, no proxy in between. */
function rawPage(port: MessagePort) {
  const host = Comlink.wrap<HostApi>(port);
  let id = 0;
  const call = (target: number, method: unknown, args: unknown[] = []): Promise<Reply> =>
    host.call({ id: ++id, target, method, args } as CallRequest);
  const value = async (target: number, method: string, args: unknown[] = []) =>
    ((await call(target, method, args)) as { value: unknown }).value;
  return { host, call, value };
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
    const page = rawPage(port2);
    try {
      await page.host.open({ usearch });
      await page.value(0, 'write', [`${R}/kept.md`, 'Written through the table.']);

      // The engine has these; the table leaves them out.
      for (const method of ['wipe', 'close']) {
        expect((await refusal(page.call(0, method))).message).toContain(`'${method}'`);
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
        expect((await refusal(page.call(0, method, [`${R}/x.md`]))).message).toContain(`'${method}'`);
      }
      for (const method of [42, undefined, null, ['write'], { toString: 'write' }]) {
        await refusal(page.call(0, method, [`${R}/x.md`, 'text']));
      }

      // A session the engine returned: its table methods run, the rest do not.
      const opened = (await page.call(0, 'session', ['chat'])) as Extract<Reply, { object: string }>;
      expect(opened.object).toBe('session');
      expect(opened.data).toMatchObject({ id: 'chat' });
      expect(Object.keys(opened.data).sort()).toEqual(['id', 'uri']);
      await page.value(opened.handle, 'addMessage', ['user', 'hello']);
      for (const method of ['drop', 'constructor', '__proto__', 'toString']) {
        expect((await refusal(page.call(opened.handle, method))).message).toMatch(
          /the session .*has no method/,
        );
      }
      // A function a method returned is called as itself, never by a method name.
      const unsubscribe = (await page.call(0, 'onProgress', [])) as Extract<Reply, { callable: true }>;
      await refusal(page.call(unsubscribe.handle, 'call', []));
      await refusal(page.call(unsubscribe.handle, 'apply', []));

      // Nothing was written but the one write, and the engine is still open (no 'close' ran).
      const listed = (await page.value(0, 'ls', [R])) as Array<{ uri: string }>;
      expect(listed.map((node) => node.uri)).toEqual([`${R}/kept.md`]);
      expect(((await page.value(0, 'verify')) as { problems: unknown[] }).problems).toEqual([]);
      await page.host.close();
    } finally {
      page.host[Comlink.releaseProxy]();
      await thread.terminate();
    }
  });

  it('answers comlink’s reflection on the connection with INVALID_ARGUMENT, and changes nothing', async () => {
    const { port1, port2 } = new MessageChannel();
    createLongshipHost({ locks: null, open: openTestLongship }).connect(port1);
    const page = rawPage(port2);
    try {
      await page.host.open({});
      const host = page.host as unknown as Record<string, Record<string, PromiseLike<unknown>>>;
      // GET along a path: a property of the connection, the Function constructor behind a call.
      await refusal(Promise.resolve(host.open!.constructor!));
      await refusal(Promise.resolve(host.call!.length!));
      // CONSTRUCT, an APPLY of a path longer than one name, a new ENDPOINT.
      await refusal(new (page.host.call as unknown as new () => Promise<unknown>)());
      await refusal((host.call!.call as unknown as () => Promise<unknown>)());
      await refusal(page.host[Comlink.createEndpoint]());
      // SET: the worker's Object.prototype (here, this realm's) stays as it was.
      const polluting = ['__proto__', '__proto__', 'polluted'];
      await refusal(send(port2, { type: 'SET', path: polluting, value: { type: 'RAW', value: 1 } }));
      await refusal(send(port2, { type: 'SET', path: ['call'], value: { type: 'RAW', value: 1 } }));
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      // A thrown value where an argument goes: refused before comlink would throw it in the worker.
      await refusal(
        send(port2, {
          type: 'APPLY',
          path: ['job'],
          argumentList: [{ type: 'HANDLER', name: 'throw', value: {} }],
        }),
      );
      // The connection still serves its calls.
      expect(await page.value(0, 'ls', [R])).toEqual([]);
      await page.host.close();
    } finally {
      page.host[Comlink.releaseProxy]();
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

/** Posts a raw comlink message and resolves with its reply, decoded as comlink would. */
function send(port: MessagePort, message: Record<string, unknown>): Promise<unknown> {
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
