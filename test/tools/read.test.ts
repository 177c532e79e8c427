// read's cut (src/tools/read.ts): text over a surface's maxChars keeps its beginning in whole lines,
// as it is, and says it was cut.
import { describe, expect, it } from 'vitest';
import { cutAtLine } from '../../src/tools/read.js';

describe('cutAtLine', () => {
  const code = ['def retry(n):', '    if n > 5:', '        raise GaveUp()', '    return 200 * 2 ** n'].join(
    '\n',
  );

  it('leaves text within the limit, or with none, as it is', () => {
    expect(cutAtLine(code, code.length)).toEqual({ text: code });
    expect(cutAtLine(code, undefined)).toEqual({ text: code });
  });

  it('cuts after the last whole line that fits, keeping indentation', () => {
    expect(cutAtLine(code, 40)).toEqual({ text: 'def retry(n):\n    if n > 5:', truncated: true });
  });

  it('cuts one long line at a space, and a long word where the limit is', () => {
    expect(cutAtLine('one two three four', 10)).toEqual({ text: 'one two', truncated: true });
    expect(cutAtLine('x'.repeat(30), 10)).toEqual({ text: 'x'.repeat(10), truncated: true });
  });

  it('never leaves half of a surrogate pair', () => {
    const { text } = cutAtLine(`${'a'.repeat(9)}😀😀`, 10);
    expect(text).toBe('a'.repeat(9));
  });
});
