// Memory extraction without an LLM (docs/guide/retrieval.md, "Without an LLM"): a few English patterns
// that can be read off what the user said reliably, one memory a sentence at most. It is conservative
// on purpose: a sentence no rule is sure of (a question, "I'd like …", "I am a bit tired") is left to
// the archive, which find() reaches anyway. The kinds that need judgement (entities, cases,
// trajectories, experiences, tools, skills, soul) need an LLM, except as a "remember that …" note.

import { MONTHS } from '../context/period.js';
import type { MemoryCategory } from '../llm/prompts.js';
import { memoryPlaces, PlacedMemories } from './extract.js';
import { type MemoryWriteDeps, sessionSource } from './memory-write.js';
import type { RedirectedMemory } from './session.js';

export interface RuleMemory {
  category: MemoryCategory;
  name: string;
  content: string;
  /** Milliseconds since the epoch, for an event dated exactly enough. */
  occurredAt?: number;
}

const day = 86_400_000;

const monthPattern = MONTHS.join('|');
const weekdays = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';

/** Sentence starts and clause starts: where "I am a …" reads as a statement about the speaker. */
const lead = String.raw`(?:^|[,;:]\s*|\b(?:and|but|so|well|also|actually)\s+)`;

const remember = new RegExp(
  String.raw`${lead}(?:please\s+)?(?:remember|note|don't forget|do not forget|keep in mind)(?:\s+that)?[,:]?\s+(.+)`,
  'i',
);
const identity =
  /\b(?:[Yy]our name is|[Cc]all yourself|[Yy]ou are called|[Yy]ou're called)\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)/;
const profileRules: readonly RegExp[] = [
  /\b[Mm]y name is\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})/,
  /\b(?:[Cc]all me|I go by)\s+([A-Z][\w'-]*)/,
  new RegExp(
    String.raw`${lead}I(?:'m| am) an?\s+(?!(?:bit|little|lot|fan|big|huge|sucker|total|real)\b)([a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})(?:\s+(?:at|in|for|with|from)\b.*)?[.!]?$`,
    'i',
  ),
  /\bI (?:work|am working|'m working) (?:at|for|as an?)\s+(\S.*)/i,
  /\bI (?:live|am based|'m based) in\s+([A-Z]\S*(?:\s+[A-Z]\S*)*)/,
  /\bI(?:'m| am) from\s+([A-Z]\S*(?:\s+[A-Z]\S*)*)/,
];
const preference =
  /\bI (?:really |usually |always |generally |mostly |strongly |definitely )?(?:prefer|like|love|enjoy|hate|dislike|can't stand|always use|never use|usually use|tend to use|don't like|do not like)\s+(?!(?:it|that|this|what|how|your|you|to know|the idea)\b)(\S.*)/i;
const favourite = /\bmy (?:favou?rite|preferred)\s+(\S+(?:\s+\S+)?)\s+(?:is|are)\s+(\S.*)/i;
const firstPerson = /\b(?:I|we|my|our|I'm|I've|we're|we've)\b/i;

/**
 * The memories a rule reads off the user's messages, in order; `now` (ms) dates "yesterday" and the like.
 *
 * @example
 * ruleMemories([{ role: 'user', text: 'I prefer tabs over spaces.' }], Date.now());
 * // [{ category: 'preferences', name: 'tabs over spaces', content: 'The user said: "I prefer tabs over spaces."' }]
 */
export function ruleMemories(messages: readonly { role: string; text: string }[], now: number): RuleMemory[] {
  const found: RuleMemory[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const sentence of sentencesOf(message.text)) {
      const memory = readSentence(sentence, now);
      if (memory) found.push(memory);
    }
  }
  return found;
}

function readSentence(sentence: string, now: number): RuleMemory | undefined {
  // A question asks; it does not tell.
  if (sentence.endsWith('?')) return undefined;
  const asked = remember.exec(sentence);
  if (asked && !/\b(?:do you|can you|did you|I don't|I do not|I can't)\s+remember\b/i.test(sentence)) {
    const said = asked[1]!.trim();
    // "Remember that I prefer tabs" is a preference; what no rule places is a note for the agent.
    return readStatement(said, now) ?? { category: 'agent', name: words(said, 6), content: said };
  }
  return readStatement(sentence, now);
}

function readStatement(sentence: string, now: number): RuleMemory | undefined {
  const quoted = `The user said: "${sentence}"`;
  const named = identity.exec(sentence);
  if (named)
    return { category: 'identity', name: 'identity', content: `The assistant's name is ${named[1]}.` };
  for (const rule of profileRules) {
    if (rule.test(sentence)) return { category: 'profile', name: 'profile', content: quoted };
  }
  const when = dateIn(sentence, now);
  if (when && firstPerson.test(sentence)) {
    const label = when.at === undefined ? when.text : new Date(when.at).toISOString().slice(0, 10);
    const rest = sentence.replace(when.text, ' ');
    return {
      category: 'events',
      name: `${label} ${words(rest, 5)}`,
      content: quoted,
      ...(when.at === undefined ? {} : { occurredAt: when.at }),
    };
  }
  const liked = preference.exec(sentence);
  if (liked) return { category: 'preferences', name: words(liked[1]!, 4), content: quoted };
  const favoured = favourite.exec(sentence);
  if (favoured)
    return { category: 'preferences', name: `favourite ${words(favoured[1]!, 2)}`, content: quoted };
  return undefined;
}

/** The date a sentence states, as written, and its time when it names one day exactly. */
function dateIn(sentence: string, now: number): { text: string; at?: number } | undefined {
  const today = Math.floor(now / day) * day;
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(sentence);
  if (iso) {
    const at = Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
    return Number.isFinite(at) ? { text: iso[0], at } : { text: iso[0] };
  }
  const relative = /\b(yesterday|today|tomorrow)\b/i.exec(sentence);
  if (relative) {
    const offset = { yesterday: -1, today: 0, tomorrow: 1 }[relative[1]!.toLowerCase() as 'today'];
    return { text: relative[0], at: today + offset * day };
  }
  const dated = new RegExp(
    String.raw`\b(?:on\s+)?(?:(${monthPattern})\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(${monthPattern}))(?:,?\s+(\d{4}))?\b`,
    'i',
  ).exec(sentence);
  if (dated) {
    const month = MONTHS.indexOf((dated[1] ?? dated[4]!).toLowerCase());
    const date = Number(dated[2] ?? dated[3]);
    const year = dated[5] ? Number(dated[5]) : new Date(now).getUTCFullYear();
    if (date >= 1 && date <= 31) return { text: dated[0], at: Date.UTC(year, month, date) };
  }
  // A weekday or "last week" dates an event, but not to one day that a rule can be sure of.
  const loose = new RegExp(
    String.raw`\b(?:on|last|next|this)\s+(?:${weekdays}|week|month|year|weekend)\b`,
    'i',
  ).exec(sentence);
  return loose ? { text: loose[0] } : undefined;
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && s.length <= 500);
}

/** The first `count` words, as a memory's name. */
const words = (text: string, count: number): string =>
  text
    .replace(/[^\p{L}\p{N}\s'-]+/gu, ' ')
    .trim()
    .split(/\s+/)
    .slice(0, count)
    .join(' ') || 'note';

/**
 * Reads memories off an archived conversation by rule and writes them as extraction writes its own,
 * with the archive as their source.
 */
export async function extractByRules(
  deps: MemoryWriteDeps,
  messages: readonly { role: string; text: string }[],
  context: { session: string; archive: number; now: number },
  signal?: AbortSignal,
): Promise<{ memories: string[]; redirected: RedirectedMemory[] }> {
  const placed = new PlacedMemories(deps, signal);
  for (const memory of ruleMemories(messages, context.now)) {
    await placed.write({
      category: memory.category,
      name: memory.name,
      content: memory.content,
      places: memoryPlaces(deps.namespace, memory.category, memory.name),
      sources: [sessionSource(context.session, context.archive)],
      ...(memory.occurredAt === undefined ? {} : { occurredAt: memory.occurredAt }),
      meta: { origin: 'session', session: context.session, archive: context.archive, extractedBy: 'rules' },
    });
  }
  return { memories: placed.memories(), redirected: placed.redirected };
}
