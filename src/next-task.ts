// Long synchronous work (a snapshot's serialization, a document's conversion) waits here between
// steps, so that what is queued behind it (a find, a commit, the message that aborts it) runs first.

/**
 * Resolves in a new task of the event loop, after what is queued now. A message, not a timer: a
 * caller's fake timers (a test's) must not hold up the work. workerd with an older compatibility
 * date (2025-01-01) has no MessageChannel: a timer there.
 *
 * @example
 * for (const slide of slides) { await nextTask(); read(slide); }
 */
export function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
