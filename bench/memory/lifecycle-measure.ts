// What bench/memory/lifecycle.ts measures, on one Longship: conversations written as event memories
// the way a commit without an LLM could write them, the recall of each question's evidence among
// the top memories, and the size of what the store keeps.
import { roots } from '../../src/context/namespace.js';
import type { Longship } from '../../src/engine.js';
import { sentencesOf } from '../../src/memory/extractive-merge.js';
import { memoryKindOf } from '../../src/memory/memory-time.js';
import { memoryUri } from '../../src/session/extract.js';
import type { Conversation, Turn } from './locomo.js';

const DAY = 86_400_000;

/** A session of a conversation with its turns' times, shifted onto the benchmark's timeline. */
export interface TimedSession {
  conversation: string;
  key: string;
  turns: (Turn & { at: number })[];
}

/**
 * The sessions of `conversations`, in order, each turn with a time: its own (or its session's, or
 * the last one seen), shifted so that each conversation starts a day after the one before it ends.
 * Within a conversation the gaps between sessions are the data's.
 */
export function timeline(conversations: readonly Conversation[]): TimedSession[] {
  const out: TimedSession[] = [];
  let end: number | undefined;
  for (const conversation of conversations) {
    const times = conversation.sessions.flatMap((s) =>
      s.turns.map((t) => t.at).filter((t) => t !== undefined),
    );
    const first = times.length > 0 ? Math.min(...times) : Date.UTC(2024, 0, 1);
    const shift = end === undefined ? 0 : end + DAY - first;
    let last = first;
    for (const session of conversation.sessions) {
      const turns = session.turns
        .filter((turn) => turn.text.trim() !== '')
        .map((turn) => {
          last = Math.max(last, turn.at ?? last);
          return { ...turn, at: (turn.at ?? last) + shift };
        });
      if (turns.length > 0) out.push({ conversation: conversation.name, key: session.key, turns });
    }
    end = last + shift;
  }
  return out;
}

/** Writes each turn of `session` as an event memory; resolves with the URIs written. */
export async function writeSession(longship: Longship, session: TimedSession): Promise<string[]> {
  const written: string[] = [];
  for (const turn of session.turns) {
    const uri = memoryUri(longship.namespace, 'events', `${session.conversation}-${turn.id}`);
    await longship.write(uri, turn.text, {
      parents: true,
      meta: {
        category: 'events',
        occurredAt: turn.at,
        sources: [`${session.conversation}/${session.key}/${turn.id}`],
      },
    });
    written.push(uri);
  }
  return written;
}

/** Recall of each question's evidence among the top `k` memories, for each k. */
export interface Recall {
  /** Per question, in order. */
  at5: number[];
  at10: number[];
}

/**
 * For each question, the share of its evidence turns whose every sentence is in one of the top k
 * memories (sentences, not the text as written: a merged memory keeps each sentence once, on a line
 * of its own).
 */
export async function recallOf(longship: Longship, conversation: Conversation): Promise<Recall> {
  const turns = new Map(
    conversation.sessions.flatMap((s) => s.turns.map((t) => [t.id, sentencesOf(t.text)])),
  );
  const recall: Recall = { at5: [], at10: [] };
  for (const question of conversation.questions) {
    const { memories } = await longship.find(question.question, {
      limit: 10,
      filter: { contextType: 'memory', kind: 'file' },
    });
    const held = await Promise.all(
      memories.map(async (m) => new Set(sentencesOf((await longship.store.node(m.uri))?.l2 ?? ''))),
    );
    for (const [k, into] of [
      [5, recall.at5],
      [10, recall.at10],
    ] as const) {
      const top = held.slice(0, k);
      const found = question.evidence.filter((id) => {
        const sentences = turns.get(id) ?? [];
        return sentences.length > 0 && top.some((set) => sentences.every((s) => set.has(s)));
      });
      into.push(found.length / question.evidence.length);
    }
  }
  return recall;
}

/** The memories a store keeps: how many, and their bytes (text and vectors). */
export interface StoreSize {
  memories: number;
  /** L0 + L1 + L2 in UTF-8, and 4 bytes per dimension of each vector. */
  bytes: number;
}

const utf8 = new TextEncoder();

export async function sizeOf(longship: Longship): Promise<StoreSize> {
  const size: StoreSize = { memories: 0, bytes: 0 };
  for (const root of roots.memory) {
    for (const node of await longship.store.descendants(root)) {
      if (memoryKindOf(node) === undefined) continue;
      size.memories++;
      size.bytes += utf8.encode(node.l0 + (node.l1 ?? '') + (node.l2 ?? '')).length;
      size.bytes += (await longship.store.vectorsOfNode(node.key)).length * longship.embedder.dimensions * 4;
    }
  }
  return size;
}
