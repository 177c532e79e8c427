// Synthetic pages of about 1.5 KB of text each: sentences drawn from a few topics by a seeded
// generator, so that every run saves the same pages and a query has pages to find.
import { Random } from '../lib/random.js';

export interface SyntheticPage {
  url: string;
  title: string;
  text: string;
}

const topics: Record<string, string[]> = {
  rivers: ['river', 'flood', 'meltwater', 'levee', 'wetland', 'gauge', 'current', 'delta'],
  baking: ['bread', 'dough', 'oven', 'yeast', 'crust', 'flour', 'proofing', 'starter'],
  stars: ['telescope', 'galaxy', 'nebula', 'orbit', 'comet', 'eclipse', 'planet', 'dust'],
  gardens: ['tomato', 'compost', 'seedling', 'mulch', 'pruning', 'frost', 'soil', 'bean'],
  trains: ['locomotive', 'timetable', 'platform', 'signal', 'carriage', 'junction', 'track', 'depot'],
};
const glue = ['the', 'a', 'every', 'this', 'that', 'our', 'one', 'each'];
const verbs = ['needs', 'changes', 'follows', 'shapes', 'slows', 'meets', 'outlasts', 'explains'];

/** Queries that name a topic's words: the first search and the next. */
export const queries = ['when does the river flood over the levee?', 'how long should bread dough proof?'];

/** Page `n` of the site at `origin`: about `bytes` of text on one topic. */
export function syntheticPage(origin: string, n: number, bytes = 1500): SyntheticPage {
  const random = new Random(42, n);
  const names = Object.keys(topics);
  const topic = names[n % names.length]!;
  const words = topics[topic]!;
  const pick = (list: string[]) => list[random.uint32() % list.length]!;
  const sentences: string[] = [];
  let length = 0;
  while (length < bytes) {
    const sentence = `${pick(glue)} ${pick(words)} ${pick(verbs)} ${pick(glue)} ${pick(words)} near ${pick(words)} ${n}.`;
    sentences.push(sentence.charAt(0).toUpperCase() + sentence.slice(1));
    length += sentence.length + 1;
  }
  return { url: `${origin}/article/${n}`, title: `Notes on ${topic} ${n}`, text: sentences.join(' ') };
}
