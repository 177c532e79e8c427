// A Longship hosted in an extension page (an offscreen document), reached from the extension's
// service worker over a MessagePort, with the whole RemoteLongship API (docs/guide/extension.md,
// "A port for the service worker"). The service worker asks every page for a port; a page that
// shares the engine answers with a fresh one. A stopped service worker loses its ports, so each new
// one asks again.

import { globalScope, serviceWorkerClients, serviceWorkerContainer } from '../env/runtime.js';
import { LongshipError } from '../errors.js';
import type { Port } from '../web-types.js';
import { type ConnectOptions, connectLongship, type RemoteLongship } from './connect.js';
import type { LongshipHost } from './expose.js';

/** The service worker's request, to every page, and a page's answer with the port. */
const asked = 'longshipPortWanted';
const given = 'longshipPortGiven';

interface Answer {
  [given]: string;
  error?: { code: string; message: string };
}

/** What `navigator.serviceWorker` offers a page here (typed structurally: no WebWorker lib). */
export interface ServiceWorkerContainerLike
  extends Pick<EventTarget, 'addEventListener' | 'removeEventListener'> {
  startMessages?(): void;
}

/** What a service worker's `self.clients` offers. */
export interface ClientsLike {
  matchAll(options: {
    includeUncontrolled: boolean;
  }): Promise<readonly { postMessage(message: unknown): void }[]>;
}

/** A page's sharing of its engine; `stop()` answers no more requests (ports already given live on). */
export interface SharedLongship {
  stop(): void;
}

/**
 * Answers the service worker's requests for a port to this page's engine. `engine` is a
 * `LongshipHost` (`createLongshipHost()` from `longship/worker`, when the engine runs in this page) or
 * a function that returns a new port to it (for a SharedWorker: `new SharedWorker(url, { type:
 * 'module', name }).port`, the same `url` and `name` as the worker the page opened).
 *
 * @example
 * // offscreen.js
 * const worker = () => new SharedWorker(chrome.runtime.getURL('longship/dist/worker/entry.js'), { type: 'module', name: 'longship' });
 * const longship = await openLongshipInWorker({ worker: worker() });
 * shareLongshipWithServiceWorker(() => worker().port);
 */
export function shareLongshipWithServiceWorker(
  engine: LongshipHost | (() => Port),
  container: ServiceWorkerContainerLike = pageContainer(),
): SharedLongship {
  const newPort = typeof engine === 'function' ? engine : () => hostPort(engine);
  const listener = (received: Event) => {
    const event = received as MessageEvent;
    const id = (event.data as Record<string, unknown> | null)?.[asked];
    const source = event.source as { postMessage(message: unknown, transfer?: Transferable[]): void } | null;
    if (typeof id !== 'string' || !source) return;
    let port: Port;
    try {
      port = newPort();
    } catch (error) {
      const { code = 'WORKER_LOST', message = String(error) } = error as Partial<LongshipError>;
      source.postMessage({ [given]: id, error: { code, message } } satisfies Answer);
      return;
    }
    source.postMessage({ [given]: id } satisfies Answer, [port]);
  };
  container.addEventListener('message', listener);
  // Messages from the service worker wait in the queue until a page asks for them.
  container.startMessages?.();
  return { stop: () => container.removeEventListener('message', listener) };
}

export interface ConnectLongshipFromPageOptions extends Omit<ConnectOptions, 'lost'> {
  /** Default: the service worker's `self.clients`. */
  clients?: ClientsLike;
  /** Where the page's answer arrives. Default: the service worker's global scope. */
  scope?: EventTarget;
}

/**
 * In the service worker: asks the extension's pages for a port to the engine one of them shares
 * ({@link shareLongshipWithServiceWorker}) and connects to it. Create the page first (for an
 * offscreen document, `chrome.offscreen.createDocument()`); a service worker that was stopped has
 * lost its ports, so call this again in the new one. With no page open it fails with
 * `WORKER_LOST`; while pages are open but none shares, it waits (pass `signal` to give up).
 *
 * @example
 * const longship = await connectLongshipFromPage();
 * const { resources } = await longship.find('rivers in spring');
 */
export async function connectLongshipFromPage(
  options: ConnectLongshipFromPageOptions = {},
): Promise<RemoteLongship> {
  const { clients = workerClients(), scope = globalScope(), ...rest } = options;
  const port = await askForPort(clients, scope, rest.signal);
  const dispose = rest.dispose;
  return connectLongship(port, {
    ...rest,
    dispose: () => {
      port.close();
      dispose?.();
    },
  });
}

async function askForPort(clients: ClientsLike, scope: EventTarget, signal?: AbortSignal): Promise<Port> {
  const id = crypto.randomUUID();
  let listener: (event: Event) => void = () => {};
  let abort: () => void = () => {};
  const answered = new Promise<Port>((resolve, reject) => {
    listener = (event) => {
      const { data, ports } = event as MessageEvent;
      if ((data as Answer | null)?.[given] !== id) return;
      const { error } = data as Answer;
      if (error) reject(new LongshipError(error.code as 'WORKER_LOST', error.message));
      else if (ports[0]) resolve(ports[0]);
      else reject(new LongshipError('WORKER_LOST', 'the page answered without a port'));
    };
    abort = () =>
      reject(new LongshipError('ABORTED', 'connecting to Longship was aborted', { cause: signal?.reason }));
  });
  answered.catch(() => {}); // awaited below, unless asking failed first
  scope.addEventListener('message', listener);
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort);
  try {
    const pages = await clients.matchAll({ includeUncontrolled: true });
    if (pages.length === 0) {
      throw new LongshipError(
        'WORKER_LOST',
        'no extension page is open to share Longship: create the page that hosts it first',
      );
    }
    for (const page of pages) page.postMessage({ [asked]: id });
    return await answered;
  } finally {
    scope.removeEventListener('message', listener);
    signal?.removeEventListener('abort', abort);
  }
}

/** A new connection to an engine in this page: one end served, the other given away. */
function hostPort(host: LongshipHost): Port {
  const { port1, port2 } = new MessageChannel();
  host.connect(port1);
  return port2;
}

function pageContainer(): ServiceWorkerContainerLike {
  const container = serviceWorkerContainer<ServiceWorkerContainerLike>();
  if (!container) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      'this page has no navigator.serviceWorker to share Longship with',
    );
  }
  return container;
}

function workerClients(): ClientsLike {
  const clients = serviceWorkerClients<ClientsLike>();
  if (!clients) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      'connectLongshipFromPage() runs in a service worker (no self.clients here)',
    );
  }
  return clients;
}
