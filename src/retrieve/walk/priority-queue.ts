// A binary max-heap of directories to visit. Ties go to the smaller URI, so walks are deterministic.

export interface QueueEntry {
  uri: string;
  priority: number;
}

export class PriorityQueue<T extends QueueEntry> {
  readonly #heap: T[] = [];

  get size(): number {
    return this.#heap.length;
  }

  push(entry: T): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < heap.length && before(heap[left]!, heap[best]!)) best = left;
      if (right < heap.length && before(heap[right]!, heap[best]!)) best = right;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best]!, heap[i]!];
      i = best;
    }
    return top;
  }
}

function before(a: QueueEntry, b: QueueEntry): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.uri < b.uri);
}
