// openLongshipInWorker's own checks, in Node (no Worker here): bad options fail typed, before anything
// starts; a MessagePort is taken as the worker's end. The worker itself is tested in
// test/worker/ and in Chromium (test/targets/chromium-longship.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openLongshipInWorker } from '../../src/client/open-longship-in-worker.js';
import { LongshipError } from '../../src/errors.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import { openTestLongship } from '../worker/fixture.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return (error as LongshipError).code;
}

describe('openLongshipInWorker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('starts the worker script under `assets`, and refuses an `assets` that is no folder', async () => {
    const started: string[] = [];
    // A Worker that records its script and fails to start, as a missing script would.
    class RecordingWorker extends EventTarget {
      constructor(url: string | URL) {
        super();
        started.push(String(url));
        queueMicrotask(() => this.dispatchEvent(new Event('error')));
      }
      postMessage() {}
      terminate() {}
    }
    vi.stubGlobal('Worker', RecordingWorker);
    vi.stubGlobal('ErrorEvent', class extends Event {});
    const assets = new URL('https://app.example/vendor/longship');
    expect(await codeOf(openLongshipInWorker({ assets, shared: false }))).toBe('WORKER_LOST');
    expect(started).toEqual(['https://app.example/vendor/longship/dist/worker/entry.js']);
    // A worker named on its own wins over the folder's.
    await openLongshipInWorker({ assets, worker: 'https://app.example/w.js', shared: false }).catch(() => {});
    expect(started[1]).toBe('https://app.example/w.js');
    expect(await codeOf(openLongshipInWorker({ assets: 7 as unknown as string, shared: false }))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('refuses bad options with INVALID_ARGUMENT', async () => {
    expect(await codeOf(openLongshipInWorker({ store: { indexedDB: '' } }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(openLongshipInWorker({ store: { indexedDB: 7 as unknown as string } }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await codeOf(openLongshipInWorker({ worker: 42 as unknown as string }))).toBe('INVALID_ARGUMENT');
    const renamed = await openLongshipInWorker({ name: 'notes' } as never).catch((e: LongshipError) => e);
    expect(renamed).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((renamed as LongshipError).message).toContain("use store: { indexedDB: 'name' }");
    expect(await codeOf(openLongshipInWorker({ tranformers: {} } as never))).toBe('INVALID_ARGUMENT');
    // Node has no Worker: the message says what to do instead.
    const error = await openLongshipInWorker().catch((e: unknown) => e);
    expect((error as LongshipError).code).toBe('INVALID_ARGUMENT');
    expect((error as LongshipError).message).toMatch(/openLongship/);
  });

  it('gives up opening when its signal fires, and lets go of the port', async () => {
    const { port1, port2 } = new MessageChannel();
    // An engine that never opens: another tab's, say, never lets go of the store.
    createLongshipHost({ locks: null, open: () => new Promise(() => {}) }).connect(port1);
    const controller = new AbortController();
    const opening = openLongshipInWorker({ worker: port2, signal: controller.signal });
    const closed = new Promise((resolve) => port1.addEventListener('close', resolve));
    setTimeout(() => controller.abort(new Error('the user went elsewhere')), 50);
    const error = (await opening.catch((e: unknown) => e)) as LongshipError;
    expect(error.code).toBe('ABORTED');
    expect((error.cause as Error).message).toBe('the user went elsewhere');
    await closed;
    expect(
      await codeOf(openLongshipInWorker({ worker: new MessageChannel().port2, signal: AbortSignal.abort() })),
    ).toBe('ABORTED');
  });

  it('talks to a host over a MessagePort, and closes the port with itself', async () => {
    const { port1, port2 } = new MessageChannel();
    createLongshipHost({ locks: null, open: openTestLongship }).connect(port1);
    const longship = await openLongshipInWorker({ worker: port2 });
    await longship.write('viking://resources/a.md', 'Alpha.');
    expect(await longship.read('viking://resources/a.md')).toBe('Alpha.');
    const closed = new Promise((resolve) => port1.addEventListener('close', resolve));
    await longship.close();
    await closed;
    expect(await codeOf(longship.read('viking://resources/a.md'))).toBe('STORE_CLOSED');
  });
});
