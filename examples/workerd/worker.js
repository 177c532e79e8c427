import { openLongship } from 'longship';

export default {
  async fetch(request) {
    const longship = await openLongship();
    await longship.addResource('Failed uploads are retried three times.', { name: 'retries.md' });
    const query = new URL(request.url).searchParams.get('q') ?? 'how often is an upload retried?';
    const { resources } = await longship.find(query);
    await longship.close();
    return Response.json(resources.map(({ uri, score }) => ({ uri, score })));
  },
};
