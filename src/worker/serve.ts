// Serving an object with comlink, with only the calls its side allows. Comlink answers any path of
// what it serves: it reads and sets properties (`__proto__` included), follows `method.constructor`,
// constructs, opens new endpoints. Here a message reaches comlink only as a RELEASE, or as an APPLY
// that `allow` accepts with plain values for arguments; the rest is answered with a LongshipError.

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import type { MessageEndpoint, Port } from '../web-types.js';
import { encode } from './wire.js';

/** Accepts a call's path, or throws the typed error that answers it. */
export type Allow = (path: unknown[]) => void;

export function refuse(message: string): never {
  throw new LongshipError('INVALID_ARGUMENT', `${message} (see docs/guide/worker.md)`);
}

/** A function is called as itself, never by a name such as `call` or `constructor`. */
export const asFunction: Allow = (path) => {
  if (path.length > 0) refuse(`a function served by the worker has no property '${path.join('.')}'`);
};

/** Exposes `target` on `endpoint` with comlink, behind `allow`. */
export function serveOn(endpoint: MessageEndpoint, target: object, allow: Allow): void {
  // Registered before comlink's listener, so that a refused message never reaches it.
  endpoint.addEventListener('message', (event: MessageEvent) => {
    const { id, type, path = [], argumentList = [] } = (event.data ?? {}) as Record<string, unknown>;
    if (type === 'RELEASE') return;
    try {
      if (type !== 'APPLY' || !Array.isArray(path)) {
        refuse(`the worker does not serve ${String(type)} of '${String(path).slice(0, 80)}'`);
      }
      allow(path);
      const raw = (arg: unknown) => (arg as { type?: unknown } | null)?.type === 'RAW';
      if (!Array.isArray(argumentList) || !argumentList.every(raw)) refuse('a call takes plain values');
    } catch (refusal) {
      event.stopImmediatePropagation();
      // comlink's reply to a call that threw; an id-less message has no one to answer.
      if (id !== undefined)
        endpoint.postMessage({ id, type: 'HANDLER', name: 'throw', value: encode(refusal) });
    }
  });
  Comlink.expose(target, endpoint as Comlink.Endpoint);
}

/** Serves `target` on a new channel and returns the end to send; comlink closes it when the other side lets go. */
export function serve(target: object, allow: Allow): Port {
  const { port1, port2 } = new MessageChannel();
  serveOn(port1, target, allow);
  return port2;
}
