// kill -9 of a process adding messages to a session on the file store, auto-committing every 5:
// after each kill the store reopens, passes verify(), and every message the child had acknowledged
// (addMessage() resolved) is there exactly once, pending or in an archive, in the order it was added.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openLongship } from '../../src/engine.js';
import { messageText } from '../../src/session/message.js';
import { openFileStore } from '../../src/store/file/file-open.js';
import { startChild } from '../store/file-child.js';
import { tempFolder } from '../store/file-harness.js';
import { wordEmbedder } from '../store/kill-fixture.js';

const KILLS = 6;

it(`keeps every acknowledged message through ${KILLS} kills, once`, async () => {
  const dir = join(tempFolder(), 'store');
  const acknowledged: string[] = [];
  let archivedBeforeKill = 0;
  for (let run = 0; run < KILLS; run++) {
    const child = startChild(['session', dir, String(run)]);
    await child.line('ready');
    // Kills land between messages, inside addMessage()'s commit, and inside auto-commits.
    await child.line(`ack run ${run} message ${2 + ((run * 3) % 7)} `);
    await new Promise((resolve) => setTimeout(resolve, (run * 37) % 60));
    child.process.kill('SIGKILL');
    const ended = await child.exited;
    expect(ended.signal, child.stderr()).toBe('SIGKILL');
    for (const line of child.lines) if (line.startsWith('ack ')) acknowledged.push(line.slice(4));

    const store = await openFileStore(dir, {
      embedder: { id: wordEmbedder.id, dimensions: wordEmbedder.dimensions },
    });
    const longship = await openLongship({ store, embedder: wordEmbedder });
    try {
      expect(await longship.verify(), `kill ${run}`).toEqual({ ok: true, problems: [] });
      const session = longship.session('kill-chat');
      const archived: string[] = [];
      const archives = (await longship.ls(session.uri)).filter(
        (n) => n.kind === 'dir' && /^\d+$/.test(n.name),
      );
      for (const archive of archives) {
        for (const file of await longship.ls(archive.uri)) archived.push(await longship.read(file.uri));
      }
      const pending = (await session.messages()).map(messageText);
      const all = [...archived, ...pending];
      // Each message once, in order; the one in flight at the kill may be there, unacknowledged.
      expect(all.slice(0, acknowledged.length), `kill ${run}`).toEqual(acknowledged);
      expect(all.length - acknowledged.length).toBeLessThanOrEqual(1);
      // What was stored unacknowledged is acknowledged now: the next run's messages follow it.
      acknowledged.push(...all.slice(acknowledged.length));
      archivedBeforeKill = archived.length;
    } finally {
      await longship.close();
    }
  }
  console.log(`${acknowledged.length} messages over ${KILLS} kills, ${archivedBeforeKill} archived`);
  expect(archivedBeforeKill).toBeGreaterThan(0);
}, 120_000);
