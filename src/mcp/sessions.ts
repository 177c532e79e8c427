// The sessions MCP calls name by id. A Session keeps its uncommitted messages in its object, so
// every request about one id (each a fresh server in stateless HTTP) must reach the same object:
// they are kept per Longship until committed.

import type { Longship } from '../engine.js';
import type { Session } from '../session/session.js';

const open = new WeakMap<Longship, Map<string, Session>>();

/** The session `id` of `longship`, the same object on every call until {@link forgetSession}. */
export function sessionOf(longship: Longship, id: string): Session {
  let sessions = open.get(longship);
  if (sessions === undefined) {
    sessions = new Map();
    open.set(longship, sessions);
  }
  let session = sessions.get(id);
  if (session === undefined) {
    session = longship.session(id);
    sessions.set(id, session);
  }
  return session;
}

/** Drops a committed session: its messages are archived, a later call starts afresh. */
export function forgetSession(longship: Longship, id: string): void {
  open.get(longship)?.delete(id);
}
