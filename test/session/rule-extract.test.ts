// Memory extraction without an LLM (docs/guide/retrieval.md, "Without an LLM"): the rules read the
// user's plain statements, and leave questions, wishes, moods and other speakers' words alone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ruleMemories } from '../../src/session/rule-extract.js';

interface Conversation {
  now: string;
  messages: { role: string; text: string }[];
  expected: { category: string; name: string; content: string; occurredAt?: string }[];
}

const conversation = (name: string): Conversation =>
  JSON.parse(readFileSync(new URL(`../fixtures/conversations/${name}.json`, import.meta.url), 'utf8'));

describe('ruleMemories', () => {
  it.each(['onboarding', 'trip-planning', 'chit-chat'])('reads %s as expected', (name) => {
    const { now, messages, expected } = conversation(name);
    expect(ruleMemories(messages, Date.parse(now))).toEqual(
      expected.map(({ occurredAt, ...memory }) =>
        occurredAt ? { ...memory, occurredAt: Date.parse(`${occurredAt}T00:00:00Z`) } : memory,
      ),
    );
  });

  it.each([
    ['I prefer dark mode in every editor.', 'preferences'],
    ['I always use pnpm, never npm.', 'preferences'],
    ['Call me Sam.', 'profile'],
    ['I work at Globex as a data analyst.', 'profile'],
    ["I'm from Porto.", 'profile'],
    ['On 2023-11-02 we shipped version 2.', 'events'],
    ['I started the new job on March 3rd.', 'events'],
    ['Remember that I prefer short answers.', 'preferences'],
    ['Note that the VPN needs a restart after sleep.', 'agent'],
    ['You are called Juno.', 'identity'],
  ])('%j → %s', (text, category) => {
    expect(ruleMemories([{ role: 'user', text }], Date.UTC(2024, 0, 1)).map((m) => m.category)).toEqual([
      category,
    ]);
  });

  it.each([
    'Do you prefer tabs?',
    "I'd like a coffee.",
    'I am a bit lost here.',
    "I don't remember that meeting.",
    'We met on Tuesday?',
    'The build failed yesterday.',
    'I like it.',
  ])('takes nothing from %j', (text) => {
    expect(ruleMemories([{ role: 'user', text }], Date.UTC(2024, 0, 1))).toEqual([]);
  });

  it('dates "on March 3rd" in the year of the conversation and "tomorrow" from its day', () => {
    const now = Date.UTC(2024, 6, 10, 15);
    const [march, tomorrow] = ruleMemories(
      [{ role: 'user', text: 'I started the new job on March 3rd. Tomorrow I fly to Oslo.' }],
      now,
    );
    expect(march).toMatchObject({ category: 'events', occurredAt: Date.UTC(2024, 2, 3) });
    expect(tomorrow).toMatchObject({ category: 'events', occurredAt: Date.UTC(2024, 6, 11) });
  });
});
