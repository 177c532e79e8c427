/**
 * What a session's earlier context() calls delivered, so a later turn is not sent it again
 * (docs/guide/context.md, "Across turns"). context() reads and records through this interface only; the
 * engine picks where it lives. Each entry's hash is opaque to the ledger: context() writes the
 * layer it delivered and a hash of that layer's text, so a node that changed since is sent again.
 */

/** One node delivered to a session: its URI and the hash context() compares next time. */
export interface DeliveredEntry {
  uri: string;
  hash: string;
}

/** Where the deliveries of each session are kept, by session id. */
export interface DeliveredLedger {
  /** URI → hash of everything delivered to `sessionId` so far (empty for a session never served). */
  readDelivered(store: object, sessionId: string): Promise<Map<string, string>>;
  /** Adds (or replaces, by URI) these entries to what `sessionId` was delivered. */
  recordDelivered(store: object, sessionId: string, entries: readonly DeliveredEntry[]): Promise<void>;
}

/**
 * A ledger kept in memory, per store and session id: it lasts as long as the Longship that made
 * it. A Longship with persistent sessions keeps its ledger with them instead.
 *
 * @example
 * const ledger = memoryDeliveredLedger();
 * await ledger.recordDelivered(store, 'chat-1', [{ uri: 'viking://resources/a.md', hash: 'L2 fnv1a64:…' }]);
 * (await ledger.readDelivered(store, 'chat-1')).get('viking://resources/a.md'); // 'L2 fnv1a64:…'
 */
export function memoryDeliveredLedger(): DeliveredLedger {
  const byStore = new WeakMap<object, Map<string, Map<string, string>>>();
  const sessionsOf = (store: object) => {
    let sessions = byStore.get(store);
    if (!sessions) {
      sessions = new Map();
      byStore.set(store, sessions);
    }
    return sessions;
  };
  return {
    async readDelivered(store, sessionId) {
      // A copy: what the caller does with it cannot change the ledger.
      return new Map(sessionsOf(store).get(sessionId));
    },
    async recordDelivered(store, sessionId, entries) {
      const sessions = sessionsOf(store);
      const delivered = sessions.get(sessionId) ?? new Map<string, string>();
      for (const { uri, hash } of entries) delivered.set(uri, hash);
      sessions.set(sessionId, delivered);
    },
  };
}
