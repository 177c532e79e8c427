// A Node project with no DOM lib (tsconfig.json: lib ES2023, types node, strict, skipLibCheck
// false) uses Longship's main API; `tsc --noEmit` type-checks it against the installed package.
import {
  type FindResult,
  LongshipError,
  type MatchedContext,
  openLongship,
  openMemoryStore,
  transformersEmbedder,
} from 'longship';

const embedder = transformersEmbedder({ dtype: 'q8' });
const store = await openMemoryStore({ embedder: { id: embedder.id, dimensions: embedder.dimensions } });
const longship = await openLongship({ store, embedder });

const job = longship.addResource('Longships carried the Norse across the North Sea.', { name: 'ships.md' });
const { failed, jobs } = await longship.waitProcessed();
if (failed > 0) console.error(jobs.map((outcome) => `${outcome.at ?? 'input'}: ${String(outcome.error)}`));
console.log((await job).uris);

const found: FindResult = await longship.find('how did Vikings cross the sea?', { limit: 3 });
const top: MatchedContext | undefined = found.resources[0];
console.log(top?.uri, top?.score.toFixed(3));

try {
  await longship.read('viking://resources/missing.md');
} catch (error) {
  if (error instanceof LongshipError && error.code === 'NOT_FOUND') console.log('not there');
}
await longship.close();
