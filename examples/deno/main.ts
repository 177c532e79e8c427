import { openLongship } from 'npm:longship';

const longship = await openLongship({ path: './context' });
await longship.addResource('# Retries\n\nA failed upload is retried three times, with exponential backoff.', {
  name: 'retries.md',
});
const { resources } = await longship.find('how often is an upload retried?');
for (const hit of resources) console.log(hit.score.toFixed(3), hit.uri, hit.abstract);
await longship.close();
