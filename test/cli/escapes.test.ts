// A document's control characters never reach a terminal from `longship` (issue 33): OSC (retitle),
// CSI (clear, recolour), C1's CSI and a carriage return in its text are written as visible `\xNN` in
// every line for people; `read` and `context` keep a document's text as it is in a pipe; --json is
// JSON, with C1 escaped too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visible } from '../../src/cli/output.js';
import { openLongship } from '../../src/engine.js';
import { longshipHere } from './run-in-process.js';

const hostile = 'Uploads retry\x1b]0;pwned\x07 with backoff\x1b[2J\x1b[31m in red\x9b31m\rover it';
const content = `# Retries\n\n${hostile}\n\tindented line\n`;
const uri = 'viking://resources/retries.md';
/** What a terminal would act on: a control character (Unicode's Cc: C0, DEL, C1) but newline and tab. */
const raw = /(?![\n\t])\p{Cc}/u;

let cwd: string;
let store: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-escapes-'));
  store = join(cwd, 'store');
  const longship = await openLongship({ store: store });
  await longship.write(uri, content, { abstract: hostile });
  await longship.close();
}, 60_000);

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const run = (args: string[], tty?: { columns: number }) =>
  longshipHere([...args, '--store', store], cwd, tty);

describe('visible()', () => {
  it('writes C0, DEL and C1 controls as \\xNN, keeping what the shape allows', () => {
    expect(visible(hostile, 'line')).toBe(
      'Uploads retry\\x1b]0;pwned\\x07 with backoff\\x1b[2J\\x1b[31m in red\\x9b31m\\x0dover it',
    );
    expect(visible('a\tb\nc\x7f', 'line')).toBe('a\tb\\x0ac\\x7f');
    expect(visible('a\tb\nc\x00', 'text')).toBe('a\tb\nc\\x00');
  });
});

describe('lines for people', () => {
  it.each([
    ['find', ['find', 'upload retries backoff']],
    ['ls', ['ls', 'viking://resources']],
  ])('%s: no control character reaches stdout, in a pipe or on a terminal', async (_, args) => {
    for (const tty of [undefined, { columns: 400 }]) {
      const result = await run(args, tty);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(raw);
      expect(result.stdout).toContain('\\x1b]0;pwned\\x07');
      expect(result.stdout).toContain('\\x9b31m');
    }
  });

  it('read and context on a terminal: visible escapes, newlines and tabs kept', async () => {
    const read = await run(['read', uri], { columns: 80 });
    expect(read.stdout).toBe(visible(content, 'text'));
    expect(read.stdout).toContain('\n\tindented line\n');
    const context = await run(['context', 'upload retries backoff', '--tokens', '500'], { columns: 80 });
    expect(context.code, context.stderr).toBe(0);
    expect(context.stdout).not.toMatch(raw);
    expect(context.stdout).toContain('\\x1b[2J');
    // A block is not a line: it is not cut to the terminal's width.
    expect(context.stdout.split('\n').length).toBeGreaterThan(3);
  });

  it('read and context in a pipe: the text as stored, for the program it goes to', async () => {
    expect((await run(['read', uri])).stdout).toBe(content);
    expect((await run(['context', 'upload retries backoff', '--tokens', '500'])).stdout).toContain(hostile);
  });
});

describe('--json', () => {
  it('escapes every control character, C1 included, and parses back to the text', async () => {
    for (const args of [
      ['read', uri],
      ['find', 'upload retries backoff'],
      ['ls', 'viking://resources'],
    ]) {
      const result = await run([...args, '--json']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(raw);
      expect(result.stdout).toContain('\\u009b');
    }
    expect(JSON.parse((await run(['read', uri, '--json'])).stdout).text).toBe(content);
  });
});
