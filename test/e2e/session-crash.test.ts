// A session's messages survive a crashed browser: Chromium is SIGKILLed right after addMessage()
// resolves, before any commit, and after each restart on the same profile the session (reopened by
// id, through the demo's worker, on the real IndexedDB) has every message it had acknowledged; a
// second tab through the same SharedWorker sees them too. The last round commits them all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyReport } from '../../src/store/store.js';
import { demoUrl, waitReady } from './demo-page.js';
import { type DemoServer, serveBuiltDemo } from './demo-server.js';
import { startChromium } from './own-chromium.js';

const rounds = 4;
let server: DemoServer;
let profile: string;

beforeAll(async () => {
  server = await serveBuiltDemo();
  profile = await mkdtemp(join(tmpdir(), 'longship-session-crash-'));
});

afterAll(async () => {
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** The session's pending messages' texts, as the page's Longship reads them back. */
function pending(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    type Remote = { session(id: string): Promise<{ messages(): Promise<{ parts: { text: string }[] }[]> }> };
    const session = await (window as unknown as { longship: Remote }).longship.session('tab-chat');
    return (await session.messages()).map((m) => m.parts[0]!.text);
  });
}

describe('a session in a crashed browser', () => {
  it(`keeps every acknowledged message through ${rounds} SIGKILLs of Chromium`, async () => {
    const acknowledged: string[] = [];
    for (let round = 0; round <= rounds; round++) {
      const chromium = await startChromium(profile);
      try {
        const worker = round % 2 ? 'dedicated' : 'shared';
        const url = demoUrl(server.origin, {
          embedder: 'words',
          corpus: 'none',
          db: 'session-crash',
          worker,
        });
        const page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
        await page.goto(url);
        await waitReady(page, 120_000);
        expect(await pending(page), `after kill ${round}`).toEqual(acknowledged);
        const report = (await page.evaluate('longship.verify()')) as VerifyReport;
        expect(report.problems, `after kill ${round}`).toEqual([]);
        if (round === rounds) {
          const committed = (await page.evaluate(`longship.session('tab-chat').then((s) => s.commit())`)) as {
            archive: string;
            messages: number;
          };
          expect(committed.messages).toBe(acknowledged.length);
          expect(await pending(page)).toEqual([]);
          await chromium.close();
          break;
        }
        const texts = [
          `round ${round}: the key is under the mat`,
          `round ${round}: and the dog is called Rex`,
        ];
        for (const text of texts) {
          await page.evaluate(
            (t) =>
              (
                window as unknown as {
                  longship: {
                    session(
                      id: string,
                    ): Promise<{ addMessage(role: string, text: string): Promise<unknown> }>;
                  };
                }
              ).longship
                .session('tab-chat')
                .then((s) => s.addMessage('user', t)),
            text,
          );
          acknowledged.push(text);
        }
        if (worker === 'shared') {
          // Another tab of the origin, through the same SharedWorker, reopens the session by id.
          const other = await chromium.context.newPage();
          await other.goto(url);
          await waitReady(other, 120_000);
          expect(await pending(other)).toEqual(acknowledged);
        }
        // Killed as soon as the last addMessage() resolved: no commit, no close.
        await chromium.kill();
      } catch (error) {
        await chromium.kill().catch(() => undefined);
        throw error;
      }
    }
  }, 600_000);
});
