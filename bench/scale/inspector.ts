// The V8 inspector of a Worker under Miniflare: its JS heap, after a full collection. Node's global
// WebSocket (behind --experimental-websocket before Node 22) speaks the DevTools protocol.
import type { Miniflare } from 'miniflare';

export interface HeapUsage {
  /** Bytes of live objects on the V8 heap. */
  usedSize: number;
  /** Bytes the heap has reserved. */
  totalSize: number;
  /** Bytes held outside the heap by ArrayBuffers (the WASM memory among them), where V8 reports them. */
  backingStorageSize?: number;
}

export class Inspector {
  #next = 1;
  readonly #waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
      const waiting = message.id === undefined ? undefined : this.#waiting.get(message.id);
      if (!waiting) return;
      this.#waiting.delete(message.id!);
      if (message.error) waiting.reject(new Error(JSON.stringify(message.error)));
      else waiting.resolve(message.result);
    });
  }

  /** Connects to the inspector of the Worker named `worker`. */
  static async connect(miniflare: Miniflare, worker: string): Promise<Inspector> {
    if (typeof WebSocket === 'undefined') {
      throw new Error(
        'no WebSocket in this Node: run it with --experimental-websocket (npm run bench:scale does)',
      );
    }
    const base = await miniflare.getInspectorURL();
    const socket = new WebSocket(new URL(`/core:user:${worker}`, base));
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', () => reject(new Error(`no inspector for Worker ${worker}`)), {
        once: true,
      });
    });
    return new Inspector(socket);
  }

  send<T>(method: string, params: object = {}): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The heap now, garbage included. */
  heap(): Promise<HeapUsage> {
    return this.send<HeapUsage>('Runtime.getHeapUsage');
  }

  /**
   * The heap after a full collection: what is live. workerd runs the collection on the isolate's
   * next turn after the message, so `poke` sends the Worker requests that give it one until it has.
   */
  async liveHeap(poke: () => Promise<unknown>): Promise<HeapUsage> {
    let collected = false;
    const collecting = this.send('HeapProfiler.collectGarbage').then(() => {
      collected = true;
    });
    for (let tries = 0; !collected; tries++) {
      if (tries === 100) throw new Error('the inspector never ran the collection');
      await poke();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await collecting;
    return this.heap();
  }

  close(): void {
    this.socket.close();
  }
}
