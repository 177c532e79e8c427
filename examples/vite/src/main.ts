import { createLongship } from 'longship';

const longship = await createLongship();
await longship.addResource('# Retries\n\nA failed upload is retried three times, with exponential backoff.', {
  name: 'retries.md',
});
const { resources } = await longship.find('how often is an upload retried?');
document.body.textContent = resources.map((hit) => `${hit.score.toFixed(2)} ${hit.uri}`).join('\n');
