// What context() delivered in a session's earlier turns, kept with the session's state
// (session-state.ts), so that a later turn leaves out what the agent already has unless it changed.
// It survives commits: de-duplication is per session, not per batch of messages.

import type { VikingUri } from '../context/uri.js';
import { LongshipError } from '../errors.js';
import type { FullStore } from '../store/full-store.js';
import { sessionUriOf } from './archive.js';
import { sessionNode, stateOf, updateSessionState } from './session-state.js';

/**
 * URI → content hash of everything delivered to session `sessionId`; empty for a session with none.
 * Give it the Longship's own `store`, the one its sessions write through.
 *
 * @example
 * const delivered = await readDelivered(longship.store, sessionsRootOf(defaultNamespace), 'chat-1');
 * if (delivered.get(uri) === hash) continue; // the agent has it already
 */
export async function readDelivered(
  store: FullStore,
  sessionsRoot: VikingUri,
  sessionId: string,
): Promise<Map<string, string>> {
  return new Map(Object.entries(stateOf(await sessionNode(store, sessionsRoot, sessionId)).delivered));
}

/**
 * Adds `entries` to what session `sessionId` was delivered (a URI given again takes its new hash);
 * durable once it resolves, created with the session's directory if it has none yet. Bad entries
 * are INVALID_ARGUMENT and nothing is written.
 *
 * @example
 * await recordDelivered(longship.store, sessionsRootOf(defaultNamespace), 'chat-1', parts.map((p) => ({ uri: p.uri, hash: p.hash })));
 */
export async function recordDelivered(
  store: FullStore,
  sessionsRoot: VikingUri,
  sessionId: string,
  entries: readonly { uri: string; hash: string }[],
): Promise<void> {
  sessionUriOf(sessionsRoot, sessionId);
  if (!Array.isArray(entries)) {
    throw new LongshipError('INVALID_ARGUMENT', 'recordDelivered() takes an array of { uri, hash }');
  }
  entries.forEach((entry, i) => {
    if (
      typeof entry?.uri !== 'string' ||
      entry.uri === '' ||
      typeof entry.hash !== 'string' ||
      entry.hash === ''
    ) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `recordDelivered(): entry ${i} needs a uri and a hash, both strings`,
      );
    }
  });
  if (entries.length === 0) return;
  await updateSessionState({ store, sessionsRoot }, sessionId, (state) => {
    const delivered = { ...state.delivered };
    let changed = false;
    for (const { uri, hash } of entries) {
      if (delivered[uri] !== hash) changed = true;
      delivered[uri] = hash;
    }
    return changed ? { ...state, delivered } : undefined;
  });
}
