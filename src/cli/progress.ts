// The progress of `longship add` on stderr: a bar redrawn in place on a terminal, plain lines (one
// per document finished) in a log or a pipe. A few lines by hand: a library would bring more
// options than this one bar needs.

import type { QueueProgress } from '../ingest/queue.js';
import { clip, type OutStream } from './output.js';

export interface Progress {
  /** The listener for one input's job: `label` is the path given, `index` its place among `count`. */
  job(label: string, index: number, count: number): (progress: QueueProgress) => void;
  /** Clears the bar (a terminal); call before printing anything else. */
  end(): void;
}

const barWidth = 24;
/** Redraws at most this often: a thousand small files would otherwise flood the terminal. */
const redrawMs = 80;

/** Progress on `stream`: a bar when it is a terminal, lines otherwise, nothing when `quiet`. */
export function createProgress(stream: OutStream, quiet: boolean): Progress {
  if (quiet) return { job: () => () => undefined, end: () => undefined };
  return stream.isTTY ? barProgress(stream) : lineProgress(stream);
}

function barProgress(stream: OutStream): Progress {
  let drawn = false;
  let last = 0;
  return {
    job: (label, index, count) => (progress) => {
      const now = Date.now();
      const finished = progress.total > 0 && progress.done === progress.total;
      if (now - last < redrawMs && !finished) return;
      last = now;
      const share = progress.total > 0 ? progress.done / progress.total : 0;
      const filled = Math.round(share * barWidth);
      const of = count > 1 ? ` (${index + 1}/${count})` : '';
      const line =
        `adding ${label}${of} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ` +
        `${progress.done}/${progress.total} ${progress.phase}`;
      stream.write(`\r\x1b[K${clip(line, (stream.columns || 80) - 1)}`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

function lineProgress(stream: OutStream): Progress {
  return {
    job(label, index, count) {
      stream.write(`adding ${label}${count > 1 ? ` (${index + 1}/${count})` : ''}\n`);
      let done = 0;
      return (progress) => {
        // One line per document finished; the files a folder read first are not documents yet.
        if (progress.phase === 'read' || progress.done <= done) return;
        done = progress.done;
        stream.write(`  ${done}/${progress.total}${progress.uri ? ` ${progress.uri}` : ''}\n`);
      };
    },
    end: () => undefined,
  };
}
