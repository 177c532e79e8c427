// Longship in Deno: `deno run --allow-read --allow-write=./context main.ts` where `longship` is installed.
import { openLongship } from 'longship';

// Everything is kept in ./context: a second run finds what the first one added.
const longship = await openLongship({ store: './context' });
if ((await longship.ls('viking://resources')).length === 0) {
  await longship.addResource('Longships were the Vikings’ boats: long, narrow and light, with a sail.', {
    name: 'longships.md',
  });
  await longship.addResource('Sourdough rises with wild yeast and lactic acid bacteria.', {
    name: 'bread.md',
  });
}
const { resources } = await longship.find('how did Norsemen cross the sea?');
for (const { uri, score } of resources) console.log(uri, score.toFixed(3));
await longship.close();
