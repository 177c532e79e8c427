// Deterministic test texts for the bundled USE-lite model: a hand-written variety set, and a corpus
// of a few thousand lines for tokenizer agreement.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const filler =
  'Longship keeps an agent’s resources, memories and skills in a tree of viking URIs, embeds every ' +
  'chunk on the device, and answers questions by searching vectors and words together. ';

/** Short and long, prose and code, numbers, punctuation, other scripts, whitespace oddities, empty. */
export const varietyTexts: readonly string[] = [
  '',
  'a',
  'Hi!',
  'hello world',
  'Hello, World.',
  'The quick brown fox jumps over the lazy dog.',
  'How do I reset my password?',
  'What is the capital of France?',
  'Paris is the capital and most populous city of France.',
  'I love my dog; he is the best boy.',
  'The weather today is sunny with a high of 25°C.',
  'Stock prices fell 3.2% on Tuesday after the earnings report.',
  'Call me at +1 (555) 010-9999 or email jane.doe@example.com.',
  'Meeting moved to 10:30 on 2024-03-15 — bring the Q1 numbers.',
  '3.14159265358979323846264338327950288419716939937510',
  '1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15',
  '!!! ??? ... ;;; ---',
  '"Quoted," she said, \'and nested "quotes" too.\'',
  '(parentheses) [brackets] {braces} <angles>',
  '#hashtag @mention $dollar %percent ^caret &ampersand *star',
  'https://github.com/huggingface/transformers.js/issues?q=is%3Aopen',
  'const x = await fetch(url).then((r) => r.json());',
  'def fibonacci(n):\n    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)',
  'SELECT id, name FROM users WHERE created_at > NOW() - INTERVAL 7 DAY;',
  '<div class="card"><h1>Title</h1><p>Body</p></div>',
  '{"key": "value", "list": [1, 2, 3], "nested": {"ok": true}}',
  'for (let i = 0; i < n; i++) { sum += a[i] * b[i]; }',
  'git commit -m "fix: handle empty input" && git push origin main',
  'Café, naïve, résumé, façade, jalapeño.',
  'Die Straße ist lang und schön.',
  'El niño comió una manzana en la mañana.',
  'Москва — столица России.',
  '東京は日本の首都です。',
  '北京欢迎你',
  '서울은 한국의 수도입니다.',
  'مرحبا بالعالم',
  'שלום עולם',
  'Ελληνικά γράμματα: α β γ δ',
  'Emoji time 🎉🚀👍 with text',
  'ﬁnancial ﬂow ① ② ③ ＦＵＬＬＷＩＤＴＨ',
  '   leading and trailing spaces   ',
  'tabs\tand\nnewlines\r\nmixed',
  'UPPERCASE SHOUTING TEXT',
  'camelCaseIdentifier snake_case_name kebab-case-name',
  ':) :( :-) ;)',
  ': starts with a colon',
  '</s> <s> <unk> extra_token_id_1',
  'supercalifragilisticexpialidocious antidisestablishmentarianism',
  'The mitochondria is the powerhouse of the cell.',
  'Neural networks learn representations from data.',
  'Vector databases index embeddings for similarity search.',
  filler.repeat(2),
  filler.repeat(8),
  'word '.repeat(200),
  Array.from({ length: 150 }, (_, i) => `item${i}`).join(', '),
];

/**
 * About `count` lines: markdown from installed packages' documentation (a stride through a sorted
 * walk of node_modules, so the same lockfile gives the same lines) and a seeded synthetic mix of
 * words, numbers, punctuation, code, other scripts and odd whitespace.
 */
export function tokenizerCorpus(root: string, count: number): string[] {
  const lines = [...new Set(markdownFiles(join(root, 'node_modules'), 3).flatMap(markdownLines))];
  const fromDocs = Math.floor((count * 3) / 4);
  const stride = Math.max(1, Math.floor(lines.length / fromDocs));
  const picked = lines.filter((_, i) => i % stride === 0).slice(0, fromDocs);
  return [...picked, ...syntheticLines(count - picked.length, 20240601)];
}

function markdownFiles(directory: string, depth: number): string[] {
  const found: string[] = [];
  for (const name of readdirSync(directory).sort()) {
    const path = join(directory, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isDirectory() && depth > 0) found.push(...markdownFiles(path, depth - 1));
    else if (stats?.isFile() && /\.md$/i.test(name)) found.push(path);
  }
  return found;
}

function markdownLines(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length >= 3);
}

const pools = [
  'the of and to in is it for on with as was at by an be this that from or have not are but which you they we',
  'database vector index search memory agent context resource skill session model embedding token query result',
  'café naïve Straße façade jalapeño Zürich São Paulo Москва Київ 東京 北京 서울 Αθήνα عربى עברית हिन्दी',
  '0 1 7 42 100 2024 3.14 -17 1,000,000 10:30 12:00 2023-01-05 v1.2.3 #1 50% $9.99 1e-6 0x1F',
  '. , ; : ! ? ... - -- ( ) [ ] { } " \' / \\ | & * + = < > @ # ~ ` ^ _ :) :(',
  'const let function return await async => === !== && || null undefined console.log(x) fn(a, b) i++ a[i]',
  '🎉 🚀 👍 ❤️ ✓ ✗ → ← ★ © ® ™ € £ ¥ ① ﬁ Ｆｕｌｌ',
];

/** Seeded (mulberry32) so that every run sees the same lines. */
function syntheticLines(count: number, seed: number): string[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = pools.map((pool) => pool.split(' '));
  const separators = [' ', ' ', ' ', ' ', '', '  ', '\t', '\n'];
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(random() * 25);
    let line = random() < 0.05 ? ' ' : '';
    for (let i = 0; i < length; i++) {
      const pool = words[Math.floor(random() * words.length)]!;
      line += pool[Math.floor(random() * pool.length)]!;
      line += separators[Math.floor(random() * separators.length)]!;
    }
    return line;
  });
}
