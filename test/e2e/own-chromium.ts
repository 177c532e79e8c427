// Chromium started by hand on a profile folder, so that a test can SIGKILL it like a crash would
// and start it again on the same profile. Playwright attaches over the DevTools protocol.
import { type ChildProcess, spawn } from 'node:child_process';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { chromiumFlags, chromiumPath } from '../targets/browser.js';

export interface OwnChromium {
  readonly browser: Browser;
  /** The profile's default context: its IndexedDB lives in the profile folder. */
  readonly context: BrowserContext;
  readonly pid: number;
  /** SIGKILLs the browser process, then whatever it left in its process group. */
  kill(): Promise<void>;
  /** Closes the browser the normal way. */
  close(): Promise<void>;
}

export async function startChromium(profile: string): Promise<OwnChromium> {
  const executable = chromiumPath();
  const child = spawn(
    executable,
    [...chromiumFlags, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
    // Its own process group, so that the renderers can be reaped after the browser is killed.
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await devtoolsEndpoint(child);
  const browser = await chromium.connectOverCDP(endpoint, { timeout: 60_000 });
  const context = browser.contexts()[0];
  if (!context) throw new Error('Chromium has no default context');
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const pid = child.pid!;
  return {
    browser,
    context,
    pid,
    async kill() {
      process.kill(pid, 'SIGKILL');
      await exited;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
      // The Playwright side only now learns that the connection is gone.
      await browser.close().catch(() => undefined);
    },
    async close() {
      await browser.close().catch(() => undefined);
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5_000))]);
    },
  };
}

function devtoolsEndpoint(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${seen.slice(-2000)}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        // Keep draining stderr so that Chromium never blocks on a full pipe.
        child.stderr!.removeAllListeners('data');
        child.stderr!.resume();
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before it listened: ${seen.slice(-2000)}`));
    });
  });
}
