// Conversations in the LoCoMo format (LoCoMo's locomo10.json, and REALTALK, which follows it):
// sessions of turns with `dia_id`s, and questions whose `evidence` names the turns that answer them.
// REALTALK keeps each chat's object at the top level with `clean_text`; LoCoMo wraps it in
// `conversation` with `text`. Both read here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface Turn {
  id: string;
  speaker: string;
  text: string;
  /** Milliseconds since the epoch, when the data says. */
  at?: number;
}

export interface Question {
  question: string;
  category: string;
  /** Evidence turn ids that name a turn of the conversation (after repair, see {@link resolveEvidence}). */
  evidence: string[];
}

export interface Conversation {
  name: string;
  speakers: [string, string];
  sessions: { key: string; turns: Turn[] }[];
  questions: Question[];
  evidence: EvidenceCounts;
}

/** How the evidence ids resolved: as written, after repair, or not at all. */
export interface EvidenceCounts {
  ids: number;
  exact: number;
  repaired: number;
  unresolved: number;
  /** Questions with no resolvable evidence: left out of recall. */
  questionsWithout: number;
}

type Raw = Record<string, unknown>;

/** The files to read: one JSON file, or every JSON file of a directory. */
export function conversationFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name.endsWith('.json'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => join(path, name));
}

export function loadConversations(file: string): Conversation[] {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const samples = Array.isArray(data) ? (data as Raw[]) : [data as Raw];
  return samples.map((sample, i) =>
    parse(sample, samples.length > 1 ? `${basename(file, '.json')}#${i + 1}` : basename(file, '.json')),
  );
}

function parse(sample: Raw, name: string): Conversation {
  const body = (sample.conversation as Raw | undefined) ?? sample;
  const names = (sample.name as Raw | undefined) ?? {};
  const speakers: [string, string] = [
    String(names.speaker_1 ?? body.speaker_a ?? 'A'),
    String(names.speaker_2 ?? body.speaker_b ?? 'B'),
  ];
  const sessions = Object.keys(body)
    .filter((key) => /^session_\d+$/.test(key) && Array.isArray(body[key]))
    .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)))
    .map((key) => ({
      key,
      turns: (body[key] as Raw[]).map((turn) => {
        const at = parseDate(String(turn.date_time ?? body[`${key}_date_time`] ?? ''));
        return {
          id: String(turn.dia_id),
          speaker: String(turn.speaker ?? ''),
          text: String(turn.clean_text ?? turn.text ?? ''),
          ...(at === undefined ? {} : { at }),
        };
      }),
    }));
  const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.id)));
  const evidence: EvidenceCounts = { ids: 0, exact: 0, repaired: 0, unresolved: 0, questionsWithout: 0 };
  const questions: Question[] = [];
  for (const qa of (sample.qa as Raw[] | undefined) ?? []) {
    const resolved = new Set<string>();
    for (const raw of (qa.evidence as unknown[] | undefined) ?? []) {
      evidence.ids++;
      const id = String(raw);
      if (known.has(id)) {
        evidence.exact++;
        resolved.add(id);
        continue;
      }
      const repaired = resolveEvidence(id).filter((candidate) => known.has(candidate));
      if (repaired.length > 0) {
        evidence.repaired++;
        for (const r of repaired) resolved.add(r);
      } else {
        evidence.unresolved++;
      }
    }
    if (resolved.size === 0) {
      evidence.questionsWithout++;
      continue;
    }
    questions.push({
      question: String(qa.question),
      category: String(qa.category ?? ''),
      evidence: [...resolved],
    });
  }
  return { name, speakers, sessions, questions, evidence };
}

/**
 * What a malformed evidence id most plausibly means: lists (`D5:12;D5:16`, `D11:17; D16:1`),
 * ranges within one dialogue (`D12:3-D12:5`), trailing punctuation (`D5:3.`), and two ids run
 * together (`D13:45:D20:19`). Ids that are well-formed but name no turn stay unresolved.
 */
export function resolveEvidence(id: string): string[] {
  const out: string[] = [];
  for (const piece of id.split(/[;,\s]+|(?<=\d):(?=D)/)) {
    const clean = piece.replace(/[^\w:-]+$/g, '').trim();
    if (!clean) continue;
    const range = /^D(\d+):(\d+)-D?(\d+):?(\d+)?$/.exec(clean);
    if (range) {
      const [, d1, t1, a, b] = range;
      // `D12:3-D12:5` (a = 12, b = 5) or `D12:3-5` (a = 5).
      const dialogue = b === undefined ? d1 : a;
      const end = Number(b === undefined ? a : b);
      if (dialogue === d1)
        for (let t = Number(t1); t <= end && t - Number(t1) < 50; t++) out.push(`D${d1}:${t}`);
      continue;
    }
    out.push(clean);
  }
  return out;
}

/** `29.12.2023, 22:42:04` (REALTALK) or `1:56 pm on 8 May, 2023` (LoCoMo); undefined otherwise. */
function parseDate(text: string): number | undefined {
  const dotted = /^(\d{2})\.(\d{2})\.(\d{4}),?\s+(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  if (dotted) {
    const [, d, m, y, h, min, s] = dotted;
    return Date.UTC(Number(y), Number(m) - 1, Number(d), Number(h), Number(min), Number(s ?? 0));
  }
  const parsed = Date.parse(text.replace(/^(\d+:\d+\s*[ap]m)\s+on\s+/i, ''));
  return Number.isNaN(parsed) ? undefined : parsed;
}
