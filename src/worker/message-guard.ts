// comlink answers any path of the object it serves: it reads and sets properties (`__proto__`
// included), follows `call.constructor`, constructs, opens new endpoints. A page needs only the
// connection's five calls (HostApi) and comlink's RELEASE, so only those reach comlink; anything
// else is answered with INVALID_ARGUMENT, as the table (remote-api.ts) answers a method it lacks.

import type { Endpoint } from 'comlink';
import { LongshipError } from '../errors.js';
import type { MessageEndpoint } from '../web-types.js';
import { type HostApi, throwHandler } from './protocol.js';

const hostCalls = new Set<string>(
  Object.keys({ open: 1, call: 1, job: 1, abort: 1, close: 1 } satisfies Record<keyof HostApi, 1>),
);

/** What of a comlink message is read here; comlink's own format (wire values of type RAW or HANDLER). */
interface Message {
  id?: unknown;
  type?: unknown;
  path?: unknown;
  argumentList?: unknown;
}

/** `endpoint`, with the messages that are not a connection's calls answered here instead. */
export function guardedEndpoint(port: MessageEndpoint): MessageEndpoint {
  const endpoint = port as unknown as Endpoint;
  const listeners = new Map<unknown, EventListener>();
  const guarded: Endpoint = {
    postMessage: (message, transfer) => endpoint.postMessage(message, transfer),
    addEventListener(type, listener, options) {
      const filtered = (event: Event) => {
        const refusal = refused((event as MessageEvent).data);
        if (refusal === undefined) {
          if (typeof listener === 'function') listener(event);
          else listener.handleEvent(event);
          return;
        }
        const id = ((event as MessageEvent).data as Message | null)?.id;
        const [value] = throwHandler.serialize({ value: refusal });
        // comlink's reply to a call that threw; an id-less message has no one to answer.
        if (id !== undefined) endpoint.postMessage({ id, type: 'HANDLER', name: 'throw', value });
      };
      listeners.set(listener, filtered);
      endpoint.addEventListener(type, filtered, options);
    },
    removeEventListener(type, listener, options) {
      endpoint.removeEventListener(type, listeners.get(listener) ?? listener, options);
      listeners.delete(listener);
      // comlink lets go of its listener only on RELEASE, and would then close a port it served.
      if (endpoint.constructor?.name === 'MessagePort') (endpoint as MessagePort).close();
    },
    ...(endpoint.start ? { start: () => endpoint.start?.() } : {}),
  };
  return guarded as unknown as MessageEndpoint;
}

/** Why `data` is not let through, or undefined for a call of the connection's or a RELEASE. */
function refused(data: unknown): LongshipError | undefined {
  if (typeof data !== 'object' || data === null) return undefined; // comlink ignores it too
  const { type, path, argumentList } = data as Message;
  if (type === 'RELEASE' && Array.isArray(path) && path.length === 0) return undefined;
  const name = Array.isArray(path) && path.length === 1 ? path[0] : undefined;
  if (type !== 'APPLY' || typeof name !== 'string' || !hostCalls.has(name)) {
    const what = Array.isArray(path) ? path.map(String).join('.').slice(0, 80) : String(path);
    return new LongshipError('INVALID_ARGUMENT', `the worker does not serve ${String(type)} of '${what}'`);
  }
  const plain = (arg: unknown) => {
    const wire = arg as { type?: unknown; name?: unknown } | null;
    return wire?.type === 'RAW' || (wire?.type === 'HANDLER' && wire.name === 'proxy');
  };
  if (!Array.isArray(argumentList) || !argumentList.every(plain)) {
    return new LongshipError('INVALID_ARGUMENT', `the arguments of ${name} are not values and callbacks`);
  }
  return undefined;
}
