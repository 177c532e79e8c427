import { abortError, throwIfAborted } from '../abort.js';

/**
 * Runs at most `size` tasks at once; the rest queue in order. A waiting task can be aborted.
 *
 * @example
 * const slots = new Semaphore(4);
 * const answer = await slots.run(() => fetch(url), signal);
 */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#free = size;
  }

  async run<T>(task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    await this.#acquire(signal);
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }

  #acquire(signal: AbortSignal | undefined): Promise<void> {
    throwIfAborted(signal);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(abortError(signal!));
      };
      this.#waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
