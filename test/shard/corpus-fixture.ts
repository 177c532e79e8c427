// A corpus for the sharded-corpus tests, the same every run: ten folders (one topic each) of
// documents in two subfolders, some long enough to be several chunks, and a hundred queries of one
// to four words. Plain data, so a test can send it to a Worker.

export const TOPICS = [
  'glacier',
  'harbour',
  'orchard',
  'volcano',
  'desert',
  'reef',
  'tundra',
  'canyon',
  'delta',
  'steppe',
];
const WORDS =
  'river stone winter summer trade salt grain copper wool timber bridge market storm tide harvest ferry lantern chapel mill road'.split(
    ' ',
  );

/** A seeded generator (mulberry32): the same corpus and queries every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(7);
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const sentence = (topic: string) =>
  `${Array.from({ length: 6 + Math.floor(next() * 8) }, () => (next() < 0.2 ? topic : pick(WORDS))).join(' ')}.`;

/** Ten folders, each a topic: two subfolders of documents, some long enough to be several chunks. */
export const folders = TOPICS.map((topic) => ({
  name: topic,
  files: Array.from({ length: 10 }, (_, i) => ({
    path: `${i % 2 === 0 ? 'notes' : 'records'}/${topic}-${pick(WORDS)}-${i}.md`,
    content: `# ${topic} ${pick(WORDS)}\n\n${Array.from({ length: 2 + Math.floor(next() * 12) }, () => sentence(topic)).join(' ')}`,
  })),
}));
export const queries = Array.from({ length: 100 }, (_, i) =>
  Array.from({ length: 1 + (i % 4) }, () => (next() < 0.35 ? pick(TOPICS) : pick(WORDS))).join(' '),
);
