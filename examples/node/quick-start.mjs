import { openLongship } from 'longship';

// Everything is kept in ./context: a second run finds what the first one added.
const longship = await openLongship({ store: './context' });
if ((await longship.ls('viking://resources')).length === 0) {
  await longship.addResource('The cat sleeps on the sofa all afternoon.', { name: 'cat.md' });
  await longship.addResource('Our flight to Tokyo was delayed by three hours.', { name: 'flight.md' });
  await longship.addResource('Share prices fell sharply on the stock market today.', { name: 'stocks.md' });
}
const { resources } = await longship.find('Where does the cat nap?');
console.log(JSON.stringify(resources.map(({ uri, score }) => ({ uri, score }))));
await longship.close();
