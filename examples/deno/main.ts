// Longship in Deno: `deno run --allow-read main.ts` in a project that has `longship` installed.
import { openLongship } from 'longship';

const longship = await openLongship();
longship.addResource('Longships were the Vikings’ boats: long, narrow and light, with oars and a sail.', {
  name: 'longships.md',
});
longship.addResource('Sourdough rises with wild yeast and lactic acid bacteria.', { name: 'bread.md' });
await longship.waitProcessed();

const { resources } = await longship.find('how did Norsemen cross the sea?');
for (const { uri, score } of resources) console.log(uri, score.toFixed(3));
await longship.close();
