// The one way a component runs its tasks one at a time: whatever reads and then writes (a commit
// that plans against what it found, a log append, a load that borrows global settings) waits for
// the task before it, which has then finished, whether it succeeded or failed.

/**
 * Runs tasks one after another, in the order they were given. A task's failure reaches its own
 * caller only; the next task runs all the same.
 *
 * @example
 * const writes = new SerialQueue();
 * await writes.run(async () => { const found = await read(); await commit(plan(found)); });
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task given before it has settled. */
  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(() => task());
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Settles once every task given so far has, never rejecting. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}
