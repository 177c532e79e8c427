/**
 * The threads pdf.js's worker side runs on in Node (docs/guide/documents.md, "Where it runs"): one a
 * PDF being read, kept for the next PDF when its reading ended by itself (a result, or pdf.js's own
 * error) and the thread outlived it, ended when the reading was cut short (an abort, the deadline, its
 * death), so that what a damaged PDF left behind on it never meets another PDF.
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
  /**
   * Gives the thread back: kept for the next PDF when the reading ended by itself (`finished`) and the
   * thread is alive after it, else ended.
   */
  release(finished: boolean): void;
}

interface Served {
  thread: PdfThread;
  worker: PdfJsWorker;
  dead: boolean;
}

/**
 * Threads given back, each once it has answered after its last PDF (undefined if it died first);
 * at most this many wait at once.
 */
const waiting: Promise<Served | undefined>[] = [];
const MAX_WAITING = 2;

/** A thread given back that answered, or undefined when none did. */
async function waitingThread(): Promise<Served | undefined> {
  while (waiting.length > 0) {
    const served = await waiting.pop();
    if (served && !served.dead) return served;
  }
  return undefined;
}

/** Ends a thread and pdf.js's side of its channel. */
function end({ worker, thread }: Served): void {
  worker.destroy();
  thread.end();
}

/**
 * A thread for reading one PDF, with pdf.js's worker side on it; undefined where pdf.js runs its
 * worker code on this thread instead (browsers, workerd, Deno).
 */
export async function lendThread(pdfjs: PdfJs): Promise<LentThread | undefined> {
  let served = await waitingThread();
  if (!served) {
    const thread = await startPdfThread();
    if (!thread) return undefined;
    // pdf.js takes a port for the channel to its worker (PDFWorker's `port`, typed loosely); its
    // worker logs at the level it is made with, not getDocument()'s: errors only, as on this thread.
    const worker = new pdfjs.PDFWorker({
      port: thread.port as unknown as null,
      verbosity: pdfjs.VerbosityLevel.ERRORS,
    });
    const fresh: Served = { thread, worker, dead: false };
    thread.ended.catch(() => {
      fresh.dead = true;
    });
    served = fresh;
  }
  served.thread.hold(true);
  const lent = served;
  let released = false;
  return {
    worker: lent.worker,
    ended: lent.thread.ended,
    release(finished) {
      if (released) return;
      released = true;
      if (!finished || lent.dead || waiting.length >= MAX_WAITING) {
        end(lent);
        return;
      }
      // A rejection pdf.js left unhandled has ended the thread by the time it answers, or never will.
      waiting.push(
        lent.thread.alive().then((alive) => {
          lent.thread.hold(false);
          if (alive) return lent;
          end(lent);
          return undefined;
        }),
      );
    },
  };
}
