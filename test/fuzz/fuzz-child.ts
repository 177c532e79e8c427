// The parser fuzz run's side of its child process: one input at a time, each under a deadline; a
// child past its deadline is killed (it may be spinning in a parser) and a new one started.

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FuzzAnswer, FuzzInput } from './fuzz-input.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export class FuzzChild {
  #child: ChildProcess | undefined;
  #ready: Promise<void> | undefined;
  #waiting: ((answer: FuzzAnswer | undefined) => void) | undefined;

  #start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fuzz/parse-child.ts'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child = child;
    const ready = new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`the fuzz child exited (${code ?? signal})`)));
      child.on('message', (message: FuzzAnswer | { ready: true }) => {
        if ('ready' in message) resolve();
        else this.#waiting?.(message);
      });
    });
    child.once('exit', () => this.#waiting?.(undefined));
    return ready;
  }

  /**
   * Parses `input` in the child; resolves with its answer, or `'hang'` when none came within
   * `deadlineMs` (the child is then killed), or `'died'` when the child exited.
   */
  async run(input: FuzzInput, deadlineMs: number): Promise<FuzzAnswer | 'hang' | 'died'> {
    this.#ready ??= this.#start();
    await this.#ready;
    const child = this.#child!;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answer = await new Promise<FuzzAnswer | 'hang' | 'died'>((resolve) => {
      this.#waiting = (a) => resolve(a ?? 'died');
      timer = setTimeout(() => resolve('hang'), deadlineMs);
      child.send(input);
    });
    clearTimeout(timer);
    this.#waiting = undefined;
    if (typeof answer === 'string') this.stop();
    return answer;
  }

  stop(): void {
    this.#child?.kill('SIGKILL');
    this.#child = undefined;
    this.#ready = undefined;
  }
}
