// "No good match" with the bundled model (docs/guide/retrieval.md, "What a score means"): a store's
// own questions keep their answer above findDefaults.noGoodMatch, while most results for questions
// about something else fall at or under it, in find() and in context(). docs/benchmarks.md gives the
// same figure on five datasets; this is it on a small corpus of our own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Longship, openLongship } from '../../src/engine.js';
import { findDefaults } from '../../src/retrieve/settings.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';

const docs: Record<string, string> = {
  'retries.md':
    '# Retries\n\nFailed uploads are retried with exponential backoff. The first retry waits 200 ms, each next one doubles the wait, and an upload gives up after five retries.',
  'timeouts.md':
    '# Timeouts\n\nEvery request times out after 30 seconds by default. Set `requestTimeout` in the client options to change it; a timed-out request fails with ERR_TIMEOUT.',
  'auth.md':
    '# Authentication\n\nThe client signs in with an API key passed in the `Authorization` header. Keys are created in the dashboard and can be revoked at any time.',
  'rate-limits.md':
    '# Rate limits\n\nEach API key may send 100 requests per minute. Over the limit, the server answers 429 Too Many Requests with a Retry-After header.',
  'webhooks.md':
    '# Webhooks\n\nWebhooks notify your server when an upload finishes. Each delivery is signed with your webhook secret so you can verify that it came from us.',
  'storage.md':
    '# Storage quotas\n\nThe free plan stores up to 5 GB of uploaded files. Paid plans raise the storage quota to 1 TB and keep deleted files for 30 days.',
};

const own: [question: string, file: string][] = [
  ['How many times does an upload retry before giving up?', 'retries.md'],
  ['What is the default request timeout?', 'timeouts.md'],
  ['How does the client authenticate with an API key?', 'auth.md'],
  ['How many requests per minute can an API key send?', 'rate-limits.md'],
  ['How do I verify that a webhook delivery came from you?', 'webhooks.md'],
  ['How much storage does the free plan include?', 'storage.md'],
  // An error code alone, which the model reads poorly: the words carry it.
  ['ERR_TIMEOUT', 'timeouts.md'],
];

const foreign = [
  'How long should sourdough bread proof before baking?',
  'Which moons of Jupiter were discovered by Galileo?',
  'What did Maria say about her sister’s wedding last weekend?',
  'What was the company’s capital expenditure in fiscal 2018?',
  'Who painted the ceiling of the Sistine Chapel?',
  'What is the best season to plant tulip bulbs?',
];

// On the store's own topic, not answered by it: near in meaning, short of its words. A calibration
// by similarity alone (or by whichever of similarity and term share is higher) lets half of these
// through.
const nearby = [
  'Can I export my data as CSV?',
  'Where can I download my invoices?',
  'How do I invite team members to my account?',
  'Does the dashboard support dark mode?',
  'How do I delete my account?',
  'Can files be shared with a public link?',
  'Which regions are the servers hosted in?',
  'How do I contact customer support?',
  'Does the client library support proxies?',
];

describe('no good match, with the bundled model', () => {
  let longship: Longship;
  beforeAll(async () => {
    longship = await openLongship({ store: await openMemoryStore() });
    await longship.addResource(
      Object.entries(docs).map(([path, content]) => ({ path, content })),
      { name: 'docs' },
    );
    await longship.waitProcessed();
  });
  afterAll(() => longship?.close());

  const threshold = findDefaults.noGoodMatch;

  it('keeps each own question’s answer above the threshold', async () => {
    for (const [question, file] of own) {
      const { resources } = await longship.find(question, { limit: 5, scoreThreshold: threshold });
      expect(
        resources.map((hit) => hit.uri),
        question,
      ).toContain(`viking://resources/docs/${file}`);
    }
  });

  it('scores most results of questions about something else at or under it', async () => {
    let results = 0;
    let dropped = 0;
    for (const question of foreign) {
      const { resources } = await longship.find(question, { limit: 5 });
      results += resources.length;
      dropped += resources.filter((hit) => hit.score <= threshold).length;
    }
    expect(results).toBeGreaterThan(0);
    expect(dropped / results).toBeGreaterThanOrEqual(0.5);
  });

  it('says so for most questions on its topic that it does not answer', async () => {
    const unanswered = [];
    for (const question of nearby) {
      const { resources } = await longship.find(question, { limit: 5 });
      if ((resources[0]?.score ?? 0) <= threshold) unanswered.push(question);
    }
    expect(unanswered.length).toBeGreaterThanOrEqual(6);
  });

  it('leaves weak hits out of context() by default, and keeps the answer', async () => {
    const answered = await longship.context(own[0]![0], { budget: 2000 });
    expect(answered.parts.map((part) => part.uri)).toContain('viking://resources/docs/retries.md');
    const empty = [];
    for (const question of foreign) {
      const block = await longship.context(question, { budget: 2000 });
      if (block.parts.length === 0) empty.push(question);
      for (const left of block.leftOut.filter((each) => each.reason === 'no-good-match'))
        expect(left.score).toBeLessThanOrEqual(threshold);
    }
    expect(empty.length).toBeGreaterThanOrEqual(foreign.length / 2);
    // Asked for everything, the same question's block holds its best tries.
    const all = await longship.context(foreign[0]!, { budget: 2000, scoreThreshold: 0 });
    expect(all.parts.length).toBeGreaterThan(0);
  });
});
