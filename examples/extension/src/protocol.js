// The one message protocol between the extension's contexts (docs/guide/extension.md). Every
// message and answer is plain JSON, because chrome.runtime messaging carries nothing else: no
// functions, no AbortSignals, no transfers.
//
//   request: { longship: 1, to: 'background' | 'engine', op: string, args: object }
//   answer:  { ok: true, value } or { ok: false, error: { code, message } }
//
// The side panel and the service worker's own triggers send to 'background'; the service worker
// makes sure the offscreen document that hosts the engine exists and forwards engine calls to it
// as 'engine'. A LongshipError keeps its code across every hop.

/** The error an answer carries: a LongshipError's code, or INTERNAL for anything else. */
export function errorOf(error) {
  const code = typeof error?.code === 'string' ? error.code : 'INTERNAL';
  return { code, message: String(error?.message ?? error) };
}

/** An Error with the code of an answer's error, as the caller's catch sees it. */
export class RemoteError extends Error {
  constructor({ code, message }) {
    super(message);
    this.name = 'LongshipError';
    this.code = code;
  }
}

/** Sends one request and resolves with its value, or rejects with a RemoteError. */
export async function send(to, op, args = {}) {
  const answer = await chrome.runtime.sendMessage({ longship: 1, to, op, args });
  if (answer === undefined) {
    throw new RemoteError({ code: 'UNAVAILABLE', message: `no context answered '${op}' (to ${to})` });
  }
  if (!answer.ok) throw new RemoteError(answer.error);
  return answer.value;
}

/**
 * Answers the requests addressed to `to` with `handlers[op](args, sender)`. Requests for other
 * contexts are left alone (returning false lets them answer).
 */
export function serve(to, handlers) {
  chrome.runtime.onMessage.addListener((message, sender, respond) => {
    if (message?.longship !== 1 || message.to !== to) return false;
    const handler = Object.hasOwn(handlers, message.op) ? handlers[message.op] : undefined;
    const answer = handler
      ? Promise.resolve()
          .then(() => handler(message.args ?? {}, sender))
          .then((value) => ({ ok: true, value: value ?? null }))
      : Promise.reject({ code: 'INVALID_ARGUMENT', message: `unknown operation '${message.op}'` });
    answer.catch((error) => ({ ok: false, error: errorOf(error) })).then(respond);
    return true; // the answer comes later
  });
}
