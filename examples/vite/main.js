import { openLongshipInWorker } from 'longship/client';

// The page needs only the client; the worker, the model and the WASM come from the package.
const longship = await openLongshipInWorker();

// Stored in IndexedDB: on the next visit these come back unchanged, not embedded again.
const job = await longship.addResource([
  { path: 'rivers.md', content: '# Rivers\n\nRivers flood in spring when the snow melts in the mountains.' },
  { path: 'deserts.md', content: '# Deserts\n\nDeserts get less than 250 mm of rain a year.' },
  { path: 'bread.md', content: '# Bread\n\nKnead the dough for ten minutes, then let it rise.' },
]);
const { resources } = await longship.find('When do rivers flood?');

document.querySelector('#results').textContent = [
  `added ${job.added}, unchanged ${job.unchanged}`,
  ...resources.map((r) => `${r.uri} ${r.score.toFixed(4)}`),
].join('\n');
