// What to say when a Content Security Policy forbids compiling WebAssembly: browsers refuse it
// unless script-src allows 'wasm-unsafe-eval' (or 'unsafe-eval'), and their error names the policy
// but not the fix. Manifest V3 extension pages are such pages (docs/guide/extension.md).

/** Chromium's and Firefox's words for a compile the policy refused. */
const refusedByPolicy = /Content Security Policy|wasm-unsafe-eval|\bunsafe-eval\b/i;

/**
 * The advice to append to a load's message when `error` (or one of its causes) is a compile the
 * page's Content Security Policy refused; '' for any other error.
 */
export function cspAdvice(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (refusedByPolicy.test(message)) {
      return "; the page's Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src (for an extension: to content_security_policy.extension_pages in manifest.json; docs/guide/extension.md)";
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return '';
}
