// LoCoMo-format chats (LoCoMo's locomo10.json; REALTALK, which keeps each chat at the top level and
// its turns' text in `clean_text`) turned into one Markdown document per chat and its questions,
// as OpenViking's benchmark/RAG `locomo_adapter.py` does: a `# Chat History` title, a `## Session N`
// section per session with its `DATE:` (and `SUMMARY:`) lines, one `**speaker**: text [dia_id]` line
// per turn, and every question but category 5 (adversarial) with its evidence ids as they are.
import type { RagDocument, RagQuestion } from './dataset.js';

type Raw = Record<string, unknown>;

export interface Chat {
  document: RagDocument;
  questions: RagQuestion[];
}

/** One chat: `sampleId` is LoCoMo's `sample_id`, or for REALTALK (which has none) the file's name. */
export function chatToMarkdown(sample: Raw, sampleId: string): Chat {
  const conversation = (sample.conversation as Raw | undefined) ?? sample;
  const lines = [`# Chat History: ${sampleId}`];
  for (let index = 1; `session_${index}` in conversation; index++) {
    lines.push(`\n## Session ${index}`);
    const date = conversation[`session_${index}_date_time`];
    if (date) lines.push(`DATE: ${date}`);
    const summary = conversation[`session_${index}_summary`];
    if (summary) lines.push(`SUMMARY: ${summary}`);
    for (const turn of (conversation[`session_${index}`] as Raw[] | undefined) ?? []) {
      lines.push(turnLine(turn));
    }
  }
  const questions: RagQuestion[] = [];
  ((sample.qa as Raw[] | undefined) ?? []).forEach((qa, i) => {
    if (String(qa.category) === '5') return;
    questions.push({
      id: `${sampleId}#${i + 1}`,
      question: String(qa.question),
      evidence: ((qa.evidence as unknown[] | undefined) ?? []).map(String),
      category: String(qa.category ?? ''),
      sampleId,
    });
  });
  return { document: { path: `${sampleId}_doc.md`, content: lines.join('\n') }, questions };
}

function turnLine(turn: Raw): string {
  const speaker = String(turn.speaker ?? 'Unknown');
  const text = String(turn.text ?? turn.clean_text ?? '');
  const id = turn.dia_id ?? turn.id;
  const images = Array.isArray(turn.img_url) ? turn.img_url.length : 0;
  const caption = turn.blip_caption;
  let image = '';
  if (images > 0 && caption) {
    image =
      images === 1
        ? `[Attached image：${caption}]`
        : Array.from({ length: images }, (_, i) => `[Attached image ${i + 1}：${caption}]`).join('');
  }
  return `**${speaker}**: ${text}${image}${id ? ` [${id}]` : ''}`;
}
