// The service worker's port to an engine an extension page hosts, in one process: the page's
// `navigator.serviceWorker` and the service worker's scope and `clients` are event targets that
// carry the same messages and ports as the browser's; the ports are real MessageChannels.
import { afterEach, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import type { RemoteLongship } from '../../src/worker/connect.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import {
  connectLongshipFromPage,
  shareLongshipWithServiceWorker,
} from '../../src/worker/service-worker-port.js';
import { openTestLongship } from '../worker/fixture.js';

const R = 'viking://resources';
const opened: RemoteLongship[] = [];

afterEach(async () => {
  for (const longship of opened.splice(0)) await longship.close();
});

/** A message event as the browser dispatches it: data, the ports moved with it, who sent it. */
function messageEvent(data: unknown, extra: { ports?: MessagePort[]; source?: unknown }): Event {
  return Object.assign(new Event('message'), {
    data,
    ports: extra.ports ?? [],
    source: extra.source ?? null,
  });
}

/** One extension page's `navigator.serviceWorker`, and what reaches it from the service worker. */
function page() {
  const container = Object.assign(new EventTarget(), { started: false, startMessages: () => {} });
  container.startMessages = () => {
    container.started = true;
  };
  return container;
}

/** A service worker (as one lifetime of it sees things) and the pages it reaches through `clients`. */
function serviceWorker(pages: ReturnType<typeof page>[]) {
  const scope = new EventTarget();
  const self = {
    postMessage: (data: unknown, transfer: MessagePort[] = []) =>
      scope.dispatchEvent(messageEvent(data, { ports: transfer })),
  };
  const clients = {
    matchAll: async () =>
      pages.map((container) => ({
        postMessage: (data: unknown) => container.dispatchEvent(messageEvent(data, { source: self })),
      })),
  };
  return { scope, clients };
}

async function rejection(promise: Promise<unknown>): Promise<LongshipError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LongshipError);
  return error as LongshipError;
}

describe('a port from an extension page to its service worker', () => {
  it('gives the service worker the page engine, and a restarted one a new port to it', async () => {
    const offscreen = page();
    const host = createLongshipHost({ open: openTestLongship, locks: null });
    shareLongshipWithServiceWorker(host, offscreen);
    expect(offscreen.started).toBe(true);

    const first = await connectLongshipFromPage(serviceWorker([offscreen]));
    opened.push(first);
    await first.write(`${R}/notes/river.md`, 'The river floods every spring.', { parents: true });

    // A stopped service worker's scope and ports are gone; the next one asks the page again.
    const second = await connectLongshipFromPage(serviceWorker([offscreen]));
    opened.push(second);
    const found = await second.find('river floods', { limit: 1 });
    expect(found.resources.map((hit) => hit.uri)).toEqual([`${R}/notes/river.md`]);
  });

  it('passes callbacks across the port, as a page does', async () => {
    const offscreen = page();
    shareLongshipWithServiceWorker(createLongshipHost({ open: openTestLongship, locks: null }), offscreen);
    const longship = await connectLongshipFromPage(serviceWorker([offscreen]));
    opened.push(longship);
    const phases: string[] = [];
    await longship.addResource([{ path: 'heron.md', content: 'Herons nest by the pond.' }], {
      target: `${R}/birds`,
      onProgress: (progress) => phases.push(progress.phase),
    });
    expect(phases.length).toBeGreaterThan(0);
  });

  it('connects through a function that returns a port, and asks only the page that shares', async () => {
    const sidePanel = page();
    const offscreen = page();
    const host = createLongshipHost({ open: openTestLongship, locks: null });
    shareLongshipWithServiceWorker(() => {
      const { port1, port2 } = new MessageChannel();
      host.connect(port1);
      return port2;
    }, offscreen);
    const longship = await connectLongshipFromPage(serviceWorker([sidePanel, offscreen]));
    opened.push(longship);
    await longship.write(`${R}/a.md`, 'Something to find.');
    expect((await longship.find('something', { limit: 1 })).resources).toHaveLength(1);
  });

  it('fails with WORKER_LOST when no page is open', async () => {
    const error = await rejection(connectLongshipFromPage(serviceWorker([])));
    expect(error.code).toBe('WORKER_LOST');
    expect(error.message).toMatch(/no extension page is open/);
  });

  it("fails with the page's error code when the page cannot make a port", async () => {
    const offscreen = page();
    shareLongshipWithServiceWorker(() => {
      throw new LongshipError('WORKER_LOST', 'the shared worker failed to start');
    }, offscreen);
    const error = await rejection(connectLongshipFromPage(serviceWorker([offscreen])));
    expect(error.code).toBe('WORKER_LOST');
    expect(error.message).toBe('the shared worker failed to start');
  });

  it('waits while no page shares, until its signal aborts; a page that stopped sharing answers no more', async () => {
    const offscreen = page();
    const shared = shareLongshipWithServiceWorker(
      createLongshipHost({ open: openTestLongship, locks: null }),
      offscreen,
    );
    shared.stop();
    const controller = new AbortController();
    const connecting = connectLongshipFromPage({ ...serviceWorker([offscreen]), signal: controller.signal });
    controller.abort();
    expect((await rejection(connecting)).code).toBe('ABORTED');
  });

  it('refuses outside a service worker and a page without navigator.serviceWorker', async () => {
    expect((await rejection(connectLongshipFromPage())).code).toBe('INVALID_ARGUMENT');
    expect(() => shareLongshipWithServiceWorker(() => new MessageChannel().port1)).toThrow(
      /no navigator.serviceWorker/,
    );
  });
});
