// The fuzz runs' side of their child process: one input at a time, each under a deadline; a child
// past its deadline is killed (it may be spinning in a parser) and a new one started.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FuzzAnswer, FuzzInput } from './fuzz-input.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface FuzzChildOptions {
  /** The child's script, from the repository root. */
  script: string;
  /** Node flags before `--import tsx` (a heap limit). */
  nodeFlags?: readonly string[];
}

/**
 * A child process that answers each input over IPC. Messages go by structured clone, so inputs
 * may carry Uint8Arrays.
 */
export class FuzzChild<Input extends { id: number } = FuzzInput, Answer extends { id: number } = FuzzAnswer> {
  readonly #options: FuzzChildOptions;
  #child: ChildProcess | undefined;
  #ready: Promise<void> | undefined;
  #waiting: ((answer: Answer | undefined) => void) | undefined;

  constructor(options: FuzzChildOptions = { script: 'test/fuzz/parse-child.ts' }) {
    this.#options = options;
  }

  #start(): Promise<void> {
    const flags = [...(this.#options.nodeFlags ?? []), '--import', 'tsx', this.#options.script];
    const child = spawn(process.execPath, flags, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.#child = child;
    // A child killed for a hang may still answer or exit later: only the current one is heard.
    const current = () => this.#child === child;
    const ready = new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`the fuzz child exited (${code ?? signal})`)));
      child.on('message', (message: Answer | { ready: true }) => {
        if ('ready' in message) resolve();
        else if (current()) this.#waiting?.(message);
      });
    });
    child.once('exit', () => {
      if (current()) this.#waiting?.(undefined);
    });
    return ready;
  }

  /** Starts the child, when none runs, and waits until it is ready. */
  start(): Promise<void> {
    this.#ready ??= this.#start();
    return this.#ready;
  }

  /**
   * Sends `input` to the child; resolves with its answer, or `'hang'` when none came within
   * `deadlineMs` (the child is then killed), or `'died'` when the child exited.
   */
  async run(input: Input, deadlineMs: number): Promise<Answer | 'hang' | 'died'> {
    await this.start();
    const child = this.#child!;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answer = await new Promise<Answer | 'hang' | 'died'>((resolve) => {
      this.#waiting = (a) => resolve(a ?? 'died');
      timer = setTimeout(() => resolve('hang'), deadlineMs);
      child.send(input);
    });
    clearTimeout(timer);
    this.#waiting = undefined;
    if (typeof answer === 'string') {
      child.kill('SIGKILL');
      this.stop();
    }
    return answer;
  }

  stop(): void {
    this.#child?.kill('SIGKILL');
    this.#child = undefined;
    this.#ready = undefined;
  }
}
