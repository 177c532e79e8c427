// Serving an object with comlink, on a port, with only the calls its side allows. Comlink answers
// any path of what it serves: it reads and sets properties (`__proto__` included), follows
// `method.constructor`, constructs, opens new endpoints. Here a message reaches comlink only as a
// RELEASE, or an APPLY that `allow` accepts with arguments that are plain values; anything else is
// answered with the error `allow` throws, or INVALID_ARGUMENT (docs/guide/worker.md).

import * as Comlink from 'comlink';
import { LongshipError } from '../errors.js';
import type { MessageEndpoint, Port } from '../web-types.js';
import { throwHandler } from './wire.js';

/** Accepts a call's path, or throws the typed error that answers it. */
export type Allow = (path: unknown[]) => void;

/** A function is called as itself, never by a property name such as `call` or `constructor`. */
export const asFunction: Allow = (path) => {
  if (path.length > 0) refuse(`a function served by the worker has no property '${path.join('.')}'`);
};

/** Exposes `target` on `endpoint` with comlink, behind `allow`. */
export function serveOn(endpoint: MessageEndpoint, target: object, allow: Allow): void {
  // Registered before comlink's listener, so a refused message never reaches it.
  endpoint.addEventListener('message', (event: MessageEvent) => {
    const refusal = refused(event.data, allow);
    if (refusal === undefined) return;
    event.stopImmediatePropagation();
    const id = (event.data as { id?: unknown }).id;
    const [value] = throwHandler.serialize({ value: refusal });
    // comlink's reply to a call that threw; an id-less message has no one to answer.
    if (id !== undefined) endpoint.postMessage({ id, type: 'HANDLER', name: 'throw', value });
  });
  Comlink.expose(target, endpoint as Comlink.Endpoint);
}

/**
 * Serves `target` on a new channel and returns the end to send. The served end is in `ports` until
 * the other side releases it (comlink closes it then).
 */
export function serve(target: object, allow: Allow, ports?: Set<Port>): Port {
  const { port1, port2 } = new MessageChannel();
  if (ports) {
    ports.add(port1);
    Object.assign(target, { [Comlink.finalizer]: () => ports.delete(port1) });
  }
  serveOn(port1, target, allow);
  return port2;
}

export function refuse(message: string): never {
  throw new LongshipError('INVALID_ARGUMENT', `${message} (see docs/guide/worker.md)`);
}

/** The error that answers `data`, or undefined for a call `allow` accepts or a RELEASE. */
function refused(data: unknown, allow: Allow): unknown {
  if (typeof data !== 'object' || data === null) return undefined; // comlink ignores it too
  const { type, path = [], argumentList = [] } = data as Record<string, unknown>;
  if (type === 'RELEASE') return undefined;
  try {
    if (type !== 'APPLY' || !Array.isArray(path)) {
      refuse(`the worker does not serve ${String(type)} of '${String(path).slice(0, 80)}'`);
    }
    allow(path);
    const raw = (arg: unknown) => (arg as { type?: unknown } | null)?.type === 'RAW';
    if (!Array.isArray(argumentList) || !argumentList.every(raw)) refuse('a call takes plain values');
    return undefined;
  } catch (error) {
    return error;
  }
}
