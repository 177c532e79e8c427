// The system under test: one Longship over one of three stores, reopened cleanly (close(), open
// again) or after a "crash": the engine is dropped without close(), no snapshot written, and a new
// one opens on what the store had persisted (the same MemoryData, IndexedDB factory or folder).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The IndexedDB store reads IDBKeyRange and friends from the global scope.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { indexesOf, type Longship, type LongshipOptions, openLongship } from '../../src/engine.js';
import type { CommitOutcome, Session, SessionOptions } from '../../src/session/session.js';
import { MemoryData } from '../../src/store/memory/memory-data.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';
import type { UsearchModule } from '../../src/vector/usearch-module.js';
import { hashEmbedder } from '../context/hash-embedder.js';

export type StoreKind = 'memory' | 'idb' | 'file';
export const storeKinds: readonly StoreKind[] = ['memory', 'idb', 'file'];

export class RealSystem {
  longship!: Longship;
  /** The Session objects the calls go through, by id: each keeps the auto-commit policy it was opened with. */
  readonly sessions = new Map<string, Session>();
  /** The commit jobs whose outcome a step has looked at (waitCommitted() answers the last ones again). */
  readonly #seenJobs = new Set<number>();
  readonly #open: () => Promise<Longship>;
  readonly #cleanup: () => void;

  private constructor(open: () => Promise<Longship>, cleanup: () => void) {
    this.#open = open;
    this.#cleanup = cleanup;
  }

  /** A fresh, empty store of `kind`; `snapshots` as openLongship takes them. */
  static async open(
    kind: StoreKind,
    usearch: UsearchModule,
    snapshots: LongshipOptions['snapshots'],
  ): Promise<RealSystem> {
    const common: LongshipOptions = { embedder: hashEmbedder, usearch, ...(snapshots ? { snapshots } : {}) };
    let system: RealSystem;
    if (kind === 'memory') {
      const data = new MemoryData();
      system = new RealSystem(
        async () => openLongship({ ...common, store: await openMemoryStore({ data }) }),
        () => undefined,
      );
    } else if (kind === 'idb') {
      const indexedDB = new IDBFactory();
      system = new RealSystem(
        () => openLongship({ ...common, store: { indexedDB: 'model', factory: indexedDB } }),
        () => undefined,
      );
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'longship-model-'));
      system = new RealSystem(
        () => openLongship({ ...common, store: join(dir, 'store') }),
        () => rmSync(dir, { recursive: true, force: true }),
      );
    }
    system.longship = await system.#open();
    return system;
  }

  session(id: string): Session {
    let session = this.sessions.get(id);
    if (!session) {
      session = this.longship.session(id);
      this.sessions.set(id, session);
    }
    return session;
  }

  /** Opens the session `id` anew, with `options`; later calls for `id` go through it. */
  openSession(id: string, options?: SessionOptions): Session {
    const session = this.longship.session(id, options);
    this.sessions.set(id, session);
    return session;
  }

  /** The outcomes of the commits of `id` that ended since the last look, once none runs. */
  async newCommits(id: string): Promise<CommitOutcome[]> {
    const outcomes = await this.session(id).waitCommitted();
    const fresh = outcomes.filter((outcome) => !this.#seenJobs.has(outcome.jobId));
    for (const outcome of fresh) this.#seenJobs.add(outcome.jobId);
    return fresh;
  }

  async reopen(): Promise<void> {
    await this.longship.close();
    await this.#reopened();
  }

  /**
   * Stops the engine where it is, as a killed process stops: whatever it had written stays, nothing
   * more is written (no snapshot, no flush), and its store lets go (a killed process's lock and
   * connection go with it).
   */
  async crash(): Promise<void> {
    await indexesOf(this.longship).close({ snapshot: false });
    await this.longship.store.close();
    await this.#reopened();
  }

  async #reopened(): Promise<void> {
    // Sessions and job ids belong to the engine that made them.
    this.sessions.clear();
    this.#seenJobs.clear();
    this.longship = await this.#open();
  }

  async dispose(): Promise<void> {
    try {
      await this.longship.close();
    } finally {
      this.#cleanup();
    }
  }
}
