// The one place a PDF's reading learns about threads: in Node, pdf.js's worker side runs on a thread of
// its own (node:worker_threads), so that what pdf.js leaves failing there (a rejection no one handles)
// or never ends (the repair of a damaged cross-reference table) ends that thread, not the process
// (docs/guide/documents.md, "Where it runs"). Browsers and workerd have no such threads: there pdf.js
// runs its worker code on the reading thread, as it always has.

/**
 * Node's threads, by a name no bundler resolves: a browser build never runs this branch
 * (as for node:fs in runtime.ts).
 */
const nodeThreads = 'node:worker_threads';

/**
 * What the thread runs: it loads pdf.js's worker module and serves it on the port it is given, and
 * answers a `ping` with its `pong` (pdf.js's own messages name their handler; these name none).
 */
const threadScript = `import(${JSON.stringify(nodeThreads)}).then(async ({ workerData: { module, port } }) => {
  const { WorkerMessageHandler } = await import(module);
  port.addEventListener('message', ({ data }) => {
    if (data && data.ping) port.postMessage({ pong: data.ping });
  });
  WorkerMessageHandler.initializeFromPort(port);
});`;

/** This side of the channel to a thread: what pdf.js's PDFWorker takes as its `port`. */
export interface ThreadPort {
  postMessage(message: unknown, transfer?: unknown[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void, options?: object): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** A thread running pdf.js's worker side. */
export interface PdfThread {
  /** The channel pdf.js's worker side listens on. */
  readonly port: ThreadPort;
  /** Rejects when the thread ends or dies: with what killed it, or an Error naming its exit code. */
  readonly ended: Promise<never>;
  /**
   * Whether the thread is still alive once what it was given before has run: true when it answers,
   * false when it ends first (of a rejection a PDF left behind, say).
   */
  alive(): Promise<boolean>;
  /** Whether the thread keeps the process alive: held while it reads, let go while it waits. */
  hold(held: boolean): void;
  /** Ends the thread now, busy or not. */
  end(): void;
}

/** Node's Worker and MessagePort, as far as this file uses them. */
interface NodeThreads {
  MessageChannel: new () => { port1: NodePort; port2: NodePort };
  Worker: new (
    script: string,
    options: { eval: true; workerData: unknown; transferList: unknown[] },
  ) => NodeWorker;
}
interface NodePort extends ThreadPort {
  ref(): void;
  unref(): void;
  close(): void;
}
interface NodeWorker {
  on(event: 'error', listener: (error: unknown) => void): void;
  on(event: 'exit', listener: (code: number) => void): void;
  ref(): void;
  unref(): void;
  terminate(): Promise<number>;
}

/** Whether this is Node, the one runtime whose threads the reader uses (Deno: see isDeno). */
function isNode(): boolean {
  return (
    typeof process !== 'undefined' &&
    typeof process.versions?.node === 'string' &&
    typeof (globalThis as { Deno?: unknown }).Deno === 'undefined'
  );
}

/**
 * Starts a thread that serves pdf.js's worker side, let go (it does not keep the process alive);
 * undefined where there are no such threads (browsers, workerd, Deno) or pdf.js's worker module
 * cannot be found from here (a bundle that inlined pdf.js): there pdf.js runs on this thread.
 */
export async function startPdfThread(): Promise<PdfThread | undefined> {
  if (!isNode()) return undefined;
  let module: string;
  try {
    module = import.meta.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
  } catch {
    return undefined;
  }
  const { MessageChannel, Worker } = (await import(
    /* webpackIgnore: true */ /* @vite-ignore */ nodeThreads
  )) as NodeThreads;
  const { port1: port, port2 } = new MessageChannel();
  const thread = new Worker(threadScript, {
    eval: true,
    workerData: { module, port: port2 },
    transferList: [port2],
  });
  const ended = new Promise<never>((_, reject) => {
    thread.on('error', reject);
    thread.on('exit', (code) => reject(new Error(`the PDF thread ended (exit code ${code})`)));
  });
  // Nothing may be waiting on it when it ends: the reader races it only while the thread reads.
  ended.catch(() => {});
  void ended.finally(() => port.close()).catch(() => {});
  const hold = (held: boolean) => {
    if (held) {
      thread.ref();
      port.ref();
    } else {
      thread.unref();
      port.unref();
    }
  };
  let pings = 0;
  const alive = () =>
    new Promise<boolean>((resolve) => {
      const ping = ++pings;
      const answered = ({ data }: { data: unknown }) => {
        if ((data as { pong?: unknown } | null)?.pong !== ping) return;
        port.removeEventListener('message', answered);
        resolve(true);
      };
      port.addEventListener('message', answered);
      ended.catch(() => resolve(false));
      port.postMessage({ ping });
    });
  hold(false);
  return { port, ended, alive, hold, end: () => void thread.terminate() };
}
