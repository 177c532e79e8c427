/**
 * The threads pdf.js's worker side runs on in Node (docs/guide/documents.md, "Where it runs"): one a
 * PDF being read, kept for the next PDF when its reading went well, ended when it failed, was stopped
 * or died, so that what a damaged PDF left behind on it never meets another PDF.
 */
import { type PdfThread, startPdfThread } from '../../env/pdf-thread.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfJsWorker = InstanceType<PdfJs['PDFWorker']>;

/** A thread lent to one PDF's reading. */
export interface LentThread {
  /** What getDocument() is given as its `worker`. */
  readonly worker: PdfJsWorker;
  /** Rejects when the thread dies (a rejection no one handled on it) or ends. */
  readonly ended: Promise<never>;
  /** Gives the thread back: kept for the next PDF if the reading went well (`healthy`), else ended. */
  release(healthy: boolean): void;
}

interface Served {
  thread: PdfThread;
  worker: PdfJsWorker;
  dead: boolean;
}

/** Threads that read a PDF well and wait for the next; at most this many wait at once. */
const waiting: Served[] = [];
const MAX_WAITING = 2;

/**
 * A thread for reading one PDF, with pdf.js's worker side on it; undefined where pdf.js runs its
 * worker code on this thread instead (browsers, workerd, Deno).
 */
export async function lendThread(pdfjs: PdfJs): Promise<LentThread | undefined> {
  let served = waiting.pop();
  if (!served) {
    const thread = await startPdfThread();
    if (!thread) return undefined;
    // pdf.js takes a port for the channel to its worker (PDFWorker's `port`), typed loosely.
    const worker = new pdfjs.PDFWorker({ port: thread.port as unknown as null });
    const fresh: Served = { thread, worker, dead: false };
    thread.ended.catch(() => {
      fresh.dead = true;
      const at = waiting.indexOf(fresh);
      if (at >= 0) waiting.splice(at, 1);
    });
    served = fresh;
  }
  served.thread.hold(true);
  const lent = served;
  let released = false;
  return {
    worker: lent.worker,
    ended: lent.thread.ended,
    release(healthy) {
      if (released) return;
      released = true;
      if (healthy && !lent.dead && waiting.length < MAX_WAITING) {
        lent.thread.hold(false);
        waiting.push(lent);
        return;
      }
      lent.worker.destroy();
      lent.thread.end();
    },
  };
}
