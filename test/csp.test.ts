// The advice a WASM_LOAD or MODEL_LOAD error gives when a Content Security Policy refused to
// compile WebAssembly (docs/guide/extension.md). In Chromium: test/targets/chromium-csp.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cspAdvice } from '../src/csp.js';
import { LongshipError } from '../src/errors.js';
import { loadUsearch } from '../src/vector/usearch-module.js';

/** Chromium's words, as its CompileError (an extension page) and EvalError (a page) give them. */
const compileError = Object.assign(
  new Error(
    `WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module because 'wasm-unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: "script-src 'self'"`,
  ),
  { name: 'CompileError' },
);
const evalError = new EvalError(
  `Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: "script-src 'self'".`,
);

describe('cspAdvice', () => {
  it("says to add 'wasm-unsafe-eval' for a compile the policy refused, however deep the cause", () => {
    for (const error of [
      compileError,
      evalError,
      new Error('no available backend found', { cause: compileError }),
      `Aborted(${compileError.message})`,
    ]) {
      const advice = cspAdvice(error);
      expect(advice).toContain("add 'wasm-unsafe-eval' to its script-src");
      expect(advice).toContain('content_security_policy.extension_pages');
    }
  });

  it('says nothing for any other failure', () => {
    for (const error of [new Error('Failed to fetch'), new TypeError('HTTP 404'), undefined, null, 42]) {
      expect(cspAdvice(error)).toBe('');
    }
  });
});

describe('loadUsearch under a policy that forbids WebAssembly', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('fails with WASM_LOAD saying what to add to the policy', async () => {
    vi.spyOn(WebAssembly, 'instantiate').mockRejectedValue(compileError);
    const error = await loadUsearch(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongshipError);
    expect((error as LongshipError).code).toBe('WASM_LOAD');
    expect((error as LongshipError).message).toContain(
      "Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src",
    );
  });
});
