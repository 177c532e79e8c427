// Where the first JSON object or array in a model's answer is, found in one linear pass.
//
// The first `{`/`[` at which a valid JSON value begins is wanted. Trying each bracket in turn and
// matching it is quadratic (a run of `{` is matched to the end once per `{`). What makes one pass
// enough: a quote closes a string exactly when an even number of backslashes precede it, whichever
// bracket the reading started at, so the text splits into two fixed readings ("phases"): the
// stretches between unescaped quotes are strings for a reading that starts in an even stretch and
// structure for one that starts in an odd one. In one reading, a value nested in a value that later
// fails is read the same way from its own start, and every value still open where the reading
// fails fails there too. So each phase is one pass of a JSON validator that records every value it
// completes and, on failure, drops all open values and carries on.

/** Where a JSON value lies: `text.slice(start, end + 1)`. */
export interface JsonSpan {
  start: number;
  end: number;
}

type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close';
interface Frame {
  start: number;
  close: '}' | ']';
  expect: Expect;
}

/**
 * The earliest `{` or `[` of `text` at which a whole JSON object or array begins, or undefined.
 * Time and memory are linear in `text.length`.
 *
 * @example
 * firstJsonSpan('Sure: {"a": [1, 2]} ok'); // { start: 6, end: 18 }
 */
export function firstJsonSpan(text: string): JsonSpan | undefined {
  const even = scanPhase(text, 0);
  const odd = scanPhase(text, 1);
  if (!even || !odd) return even ?? odd;
  return even.start < odd.start ? even : odd;
}

const whitespace = new Set([' ', '\t', '\n', '\r']);
const escapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);
const literals: Record<string, string> = { t: 'true', f: 'false', n: 'null' };

/** One reading of the text (see the file's header): the earliest value it completes. */
function scanPhase(text: string, phase: 0 | 1): JsonSpan | undefined {
  const lexer = new TokenLexer();
  let stack: Frame[] = [];
  let best: JsonSpan | undefined;
  let parity = 0;
  let backslashes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const here = parity;
    if (c === '"' && backslashes % 2 === 0) parity ^= 1;
    backslashes = c === '\\' ? backslashes + 1 : 0;
    if (stack.length > 0) {
      const step = lexer.feed(c, i, stack);
      if (step === 'ok') continue;
      if (step === 'closed') {
        const frame = stack.pop()!;
        if (!best || frame.start < best.start) best = { start: frame.start, end: i };
        if (stack.length === 0) return best;
        stack[stack.length - 1]!.expect = 'comma-or-close';
        continue;
      }
      // Every value open here fails here; the character may still begin a new one.
      stack = [];
      lexer.reset();
    }
    if (here === phase && (c === '{' || c === '[')) {
      stack.push({
        start: i,
        close: c === '{' ? '}' : ']',
        expect: c === '{' ? 'key-or-close' : 'value-or-close',
      });
    }
  }
  return best;
}

/** The validator inside a value: strings, numbers and literals a character at a time, and structure. */
class TokenLexer {
  #token: 'none' | 'string' | 'escape' | 'unicode' | 'number' | 'literal' = 'none';
  #isKey = false;
  #hexLeft = 0;
  #number = 0;
  #literal = '';
  #literalAt = 0;

  reset(): void {
    this.#token = 'none';
  }

  /** `ok`, `closed` (the top frame's closing bracket), or `fail`. */
  feed(c: string, at: number, stack: Frame[]): 'ok' | 'closed' | 'fail' {
    const top = stack[stack.length - 1]!;
    switch (this.#token) {
      case 'string':
        if (c === '"') {
          this.#token = 'none';
          top.expect = this.#isKey ? 'colon' : 'comma-or-close';
        } else if (c === '\\') this.#token = 'escape';
        else if (c < ' ') return 'fail';
        return 'ok';
      case 'escape':
        if (!escapes.has(c)) return 'fail';
        this.#token = c === 'u' ? 'unicode' : 'string';
        this.#hexLeft = 4;
        return 'ok';
      case 'unicode':
        if (!/[0-9a-fA-F]/.test(c)) return 'fail';
        if (--this.#hexLeft === 0) this.#token = 'string';
        return 'ok';
      case 'literal':
        if (c !== this.#literal[this.#literalAt]) return 'fail';
        if (++this.#literalAt === this.#literal.length) {
          this.#token = 'none';
          top.expect = 'comma-or-close';
        }
        return 'ok';
      case 'number': {
        const next = numberStep(this.#number, c);
        if (next >= 0) {
          this.#number = next;
          return 'ok';
        }
        if (!numberEnds(this.#number)) return 'fail';
        this.#token = 'none';
        top.expect = 'comma-or-close';
        return this.#structure(c, at, stack, top);
      }
      default:
        return this.#structure(c, at, stack, top);
    }
  }

  #structure(c: string, at: number, stack: Frame[], top: Frame): 'ok' | 'closed' | 'fail' {
    if (whitespace.has(c)) return 'ok';
    switch (top.expect) {
      case 'value':
      case 'value-or-close':
        if (c === ']' && top.expect === 'value-or-close') return 'closed';
        return this.#value(c, at, stack);
      case 'key':
      case 'key-or-close':
        if (c === '}' && top.expect === 'key-or-close') return 'closed';
        if (c !== '"') return 'fail';
        this.#token = 'string';
        this.#isKey = true;
        return 'ok';
      case 'colon':
        if (c !== ':') return 'fail';
        top.expect = 'value';
        return 'ok';
      default:
        if (c === top.close) return 'closed';
        if (c !== ',') return 'fail';
        top.expect = top.close === '}' ? 'key' : 'value';
        return 'ok';
    }
  }

  #value(c: string, at: number, stack: Frame[]): 'ok' | 'fail' {
    if (c === '{' || c === '[') {
      // The parent's expectation is set when this value closes.
      stack.push({
        start: at,
        close: c === '{' ? '}' : ']',
        expect: c === '{' ? 'key-or-close' : 'value-or-close',
      });
      return 'ok';
    }
    if (c === '"') {
      this.#token = 'string';
      this.#isKey = false;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      this.#token = 'number';
      this.#number = numberStep(0, c);
    } else if (literals[c]) {
      this.#token = 'literal';
      this.#literal = literals[c]!;
      this.#literalAt = 1;
    } else return 'fail';
    return 'ok';
  }
}

// A number as JSON writes it: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?. States: 0 start, 1 after '-',
// 2 after a leading 0, 3 in integer digits, 4 after '.', 5 in fraction digits, 6 after 'e',
// 7 after the exponent's sign, 8 in exponent digits. -1: the character is not part of the number.
function numberStep(state: number, c: string): number {
  const digit = c >= '0' && c <= '9';
  switch (state) {
    case 0:
      return c === '-' ? 1 : c === '0' ? 2 : digit ? 3 : -1;
    case 1:
      return c === '0' ? 2 : digit ? 3 : -1;
    case 2:
    case 3:
      if (digit) return state === 3 ? 3 : -1;
      return c === '.' ? 4 : c === 'e' || c === 'E' ? 6 : -1;
    case 4:
    case 5:
      if (digit) return 5;
      return state === 5 && (c === 'e' || c === 'E') ? 6 : -1;
    case 6:
      return c === '+' || c === '-' ? 7 : digit ? 8 : -1;
    default:
      return digit ? 8 : -1;
  }
}

function numberEnds(state: number): boolean {
  return state === 2 || state === 3 || state === 5 || state === 8;
}
