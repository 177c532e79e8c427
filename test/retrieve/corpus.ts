// A small tree of all three context types, with directories whose L0/L1 summarise their children.
import type { NodeSpec } from './fixture.js';

export const corpus: NodeSpec[] = [
  {
    uri: 'viking://resources/docs',
    l0: 'Client library documentation: networking, errors and storage.',
    l1: 'Networking covers retries, timeouts and proxies. Errors covers error handling. Storage covers IndexedDB and snapshots.',
  },
  {
    uri: 'viking://resources/docs/networking',
    l0: 'Networking: retries, timeouts and proxies for requests.',
    l1: 'How the client sends requests: retry with backoff, request timeouts, HTTP proxies.',
  },
  {
    uri: 'viking://resources/docs/networking/retries.md',
    text: 'Retries: the client retries failed requests with exponential backoff. Configure the retry limit and the backoff delay in the client options.',
  },
  {
    uri: 'viking://resources/docs/networking/timeouts.md',
    text: 'Timeouts: every request has a timeout in milliseconds; a request that takes longer is cancelled.',
  },
  {
    uri: 'viking://resources/docs/networking/proxies.md',
    text: 'Proxies: route requests through an HTTP proxy by setting the proxy URL in the client options.',
  },
  {
    uri: 'viking://resources/docs/errors',
    l0: 'Errors: how failures are reported and handled.',
    l1: 'Error handling: catch errors and switch on their code; the list of codes.',
  },
  {
    uri: 'viking://resources/docs/errors/handling.md',
    text: 'Handling errors: catch the error and switch on its code to decide whether to retry the request.',
    meta: { audience: 'developer' },
  },
  {
    uri: 'viking://resources/docs/errors/appendix/table.md',
    text: 'Table of codes. ERR_QUOTA_EXCEEDED 507. ERR_INVALID_URI 400. ERR_STORE_CLOSED 410.',
    meta: { audience: 'operator' },
  },
  {
    uri: 'viking://resources/docs/storage',
    l0: 'Storage: where nodes, vectors and snapshots are kept.',
    l1: 'IndexedDB database layout; snapshots of the vector index.',
  },
  {
    uri: 'viking://resources/docs/storage/indexeddb.md',
    text: 'IndexedDB stores nodes, vectors and postings in one database per store.',
  },
  {
    uri: 'viking://resources/docs/storage/snapshots.md',
    text: 'Snapshots save the vector index as bytes so that it loads quickly after a restart.',
    chunks: [
      'Snapshots save the vector index as bytes.',
      'Loading a snapshot after a restart is quick: no rebuild of the graph.',
    ],
  },
  {
    uri: 'viking://resources/recipes',
    l0: 'Recipes: bread and soup.',
    l1: 'Baking bread; a vegetable soup.',
  },
  {
    uri: 'viking://resources/recipes/bread.md',
    text: 'Bake bread: flour, water, salt and yeast; knead the dough and bake it for forty minutes.',
  },
  {
    uri: 'viking://resources/recipes/soup.md',
    text: 'Vegetable soup: simmer carrots, leeks and potatoes in stock for half an hour.',
  },
  {
    uri: 'viking://user/default/memories/preferences/code-style.md',
    text: 'The user prefers two-space indentation and single quotes in TypeScript code.',
  },
  {
    uri: 'viking://user/default/memories/events/lisbon-trip.md',
    text: 'The user travelled to Lisbon in March 2025 for a conference.',
  },
  {
    uri: 'viking://user/default/memories/profile',
    kind: 'file',
    text: 'The user is a TypeScript developer who builds offline-first web apps.',
  },
  {
    uri: 'viking://agent/skills/write-rfc.md',
    text: 'Write an RFC document: a template with motivation, design and alternatives sections.',
  },
  {
    uri: 'viking://agent/skills/search-web.md',
    text: 'Search the web for a query and summarise the results with their sources.',
  },
];
