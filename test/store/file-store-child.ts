// A child process for the file store's lock and kill tests, run with `node --import tsx`:
//   hold <dir>            opens the store, says "open <pid>", holds it until stdin ends, closes it
//   race <dir>            says "ready", waits for a line on stdin, then does as hold does: several
//                         of them started together open one store at the same moment
//   ingest <dir> <run>    opens a Longship on the store and writes documents, saying "ack <uri>"
//                         once each write has resolved, until it is killed
//   session <dir> <run>   opens a Longship on the store and adds messages to session "kill-chat"
//                         (auto-committed every 5), saying "ack <text>" once each has resolved
import { openLongship } from '../../src/engine.js';
import { openFileStore } from '../../src/store/file/file-open.js';
import { documentText, wordEmbedder } from './kill-fixture.js';

async function main(): Promise<void> {
  const [mode, dir, runText] = process.argv.slice(2);
  if (mode === 'race') {
    process.stdout.write('ready\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
  }
  if (mode === 'hold' || mode === 'race') {
    const store = await openFileStore(dir!).catch((error) => {
      process.stdout.write(`error ${JSON.stringify({ code: error.code, message: error.message })}\n`);
      process.exit(1);
    });
    process.stdout.write(`open ${process.pid}\n`);
    process.stdin.resume();
    await new Promise((resolve) => process.stdin.on('end', resolve));
    await store.close();
    return;
  }
  const run = Number(runText);
  const store = await openFileStore(dir!, {
    embedder: { id: wordEmbedder.id, dimensions: wordEmbedder.dimensions },
    // Small, so that kills land in checkpoints too.
    checkpointAfterBytes: 32 * 1024,
  });
  const longship = await openLongship({ store, embedder: wordEmbedder, snapshots: { delayMs: 20 } });
  process.stdout.write('ready\n');
  if (mode === 'session') {
    const session = longship.session('kill-chat', { autoCommit: { messages: 5 } });
    for (let i = 0; ; i++) {
      const text = `run ${run} message ${i} about the river`;
      await session.addMessage(i % 2 ? 'assistant' : 'user', text);
      process.stdout.write(`ack ${text}\n`);
    }
  }
  for (let i = 0; ; i++) {
    const uri = `viking://resources/kill/run${run}/doc${i}.md`;
    await longship.write(uri, documentText(run, i), { parents: true });
    process.stdout.write(`ack ${uri}\n`);
  }
}

await main();
