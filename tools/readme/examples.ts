// The README's quick starts are the example files the consumer tests run: a marker names the file,
// and the fenced block right after it holds the file's text. This module finds those blocks and
// fills them; tools/readme/sync.ts writes the README, test/readme.test.ts checks it.

/** One marked block: `<!-- example: examples/node/index.js -->` and the fence that follows it. */
export interface ExampleBlock {
  /** The example's path from the repository root, as the marker names it. */
  readonly path: string;
  /** The block's text, without its fences. */
  readonly body: string;
  /** Where the body starts and ends in the README (end excluded). */
  readonly start: number;
  readonly end: number;
}

const marker = /<!-- example: (\S+) -->\n(`{3,})[\w-]*\n/g;

/** Every marked block of `readme`, in order; a marker with no fenced block after it throws. */
export function exampleBlocks(readme: string): ExampleBlock[] {
  const blocks: ExampleBlock[] = [];
  const unfenced = [...readme.matchAll(/<!-- example: (\S+) -->/g)].length;
  for (const match of readme.matchAll(marker)) {
    const [opening, path, fence] = match as unknown as [string, string, string];
    const start = match.index + opening.length;
    const close = readme.indexOf(`\n${fence}\n`, start - 1);
    if (close < 0) throw new Error(`README: the block of ${path} has no closing ${fence}`);
    const end = Math.max(start, close + 1);
    blocks.push({ path, body: readme.slice(start, end), start, end });
  }
  if (blocks.length !== unfenced) {
    throw new Error('README: every <!-- example: path --> marker needs a fenced block on the next line');
  }
  return blocks;
}

/** `readme` with each marked block holding `read(path)`, which ends with one newline. */
export function fillExamples(readme: string, read: (path: string) => string): string {
  let filled = '';
  let at = 0;
  for (const block of exampleBlocks(readme)) {
    filled += `${readme.slice(at, block.start)}${read(block.path).trimEnd()}\n`;
    at = block.end;
  }
  return filled + readme.slice(at);
}
