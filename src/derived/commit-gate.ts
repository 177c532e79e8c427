// verify() reads the whole store in many steps. A commit landing between them would look like
// damage (an index one change behind the table just scanned), so verify() waits for the commits
// under way and holds new ones back until it has read everything.

/**
 * Counts the commits under way and lets a reader hold new ones back.
 *
 * @example
 * const gate = new CommitGate();
 * await gate.commit(() => store.commit(batch)); // waits while a reader holds the gate
 * const report = await gate.hold(() => readEverything()); // once the commits under way are done
 */
export class CommitGate {
  #inFlight = 0;
  #drained: (() => void)[] = [];
  #held: Promise<void> | undefined;

  /** Whether a commit is under way. */
  get busy(): boolean {
    return this.#inFlight > 0;
  }

  async commit<T>(run: () => Promise<T>): Promise<T> {
    while (this.#held) await this.#held;
    this.#inFlight++;
    try {
      return await run();
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0) for (const wake of this.#drained.splice(0)) wake();
    }
  }

  /** Runs `read` once no commit is under way, with new commits waiting until it settles. */
  async hold<T>(read: () => Promise<T>): Promise<T> {
    while (this.#held) await this.#held;
    let release!: () => void;
    this.#held = new Promise((resolve) => {
      release = resolve;
    });
    try {
      if (this.#inFlight > 0) await new Promise<void>((resolve) => this.#drained.push(resolve));
      return await read();
    } finally {
      this.#held = undefined;
      release();
    }
  }
}
