// LoCoMo-format chats become one Markdown document each, as OpenViking's locomo_adapter.py writes
// them (bench/rag/locomo-markdown.ts).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadLocomo } from '../../bench/rag/dataset.js';
import { chatToMarkdown } from '../../bench/rag/locomo-markdown.js';

describe('chatToMarkdown', () => {
  it('writes the title, sessions with their dates, and each turn with its id', () => {
    const path = fileURLToPath(new URL('../../bench/rag/fixtures/chats', import.meta.url));
    const dataset = loadLocomo(path, 'chats');
    expect(dataset.documents).toHaveLength(1);
    const [document] = dataset.documents;
    expect(document!.path).toBe('Chat_1_Ada_Ben_doc.md');
    expect(document!.content.split('\n')).toEqual([
      '# Chat History: Chat_1_Ada_Ben',
      '',
      '## Session 1',
      'DATE: 02.01.2024, 18:10:00',
      '**Ada**: I finally adopted a grey cat, her name is Pebble. [D1:1]',
      '**Ben**: Congratulations! I am still training for the Lisbon marathon. [D1:2]',
      '',
      '## Session 2',
      'DATE: 09.01.2024, 20:45:00',
      '**Ada**: Pebble knocked my coffee off the table this morning.[Attached image：a grey cat on a table] [D2:1]',
      '**Ben**: I ran thirty kilometres on Sunday, a new record. [D2:2]',
    ]);
    expect(dataset.documentOf.get('Chat_1_Ada_Ben')).toBe('Chat_1_Ada_Ben_doc.md');
  });

  it('leaves out category 5 and keeps the evidence ids as written', () => {
    const { questions, document: withSummary } = chatToMarkdown(
      {
        sample_id: 'conv-1',
        conversation: {
          session_1: [
            { speaker: 'A', text: 'hi', dia_id: 'D1:1', img_url: ['x', 'y'], blip_caption: 'a dog' },
          ],
          session_1_summary: 'A says hi.',
        },
        qa: [
          { question: 'Who?', evidence: ['D1:1; D1:2'], category: 1 },
          { question: 'Trick?', evidence: ['D1:1'], category: 5 },
        ],
      },
      'conv-1',
    );
    expect(questions).toEqual([
      { id: 'conv-1#1', question: 'Who?', evidence: ['D1:1; D1:2'], category: '1', sampleId: 'conv-1' },
    ]);
    expect(withSummary.content).toContain('## Session 1\nSUMMARY: A says hi.\n');
    const { document } = chatToMarkdown(
      {
        session_1: [{ speaker: 'A', text: 'hi', dia_id: 'D1:1', img_url: ['x', 'y'], blip_caption: 'a dog' }],
      },
      'c',
    );
    expect(document.content).toContain('**A**: hi[Attached image 1：a dog][Attached image 2：a dog] [D1:1]');
  });
});
