// The module Worker of the Chromium half: one MeasureRequest in, one Measurement (or error) out.
import { type MeasureRequest, measure } from './measure.js';

// The DOM typings describe a Window; a worker's global scope has these two members.
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<MeasureRequest>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = async ({ data }) => {
  try {
    scope.postMessage({
      measurement: await measure(data),
      crossOriginIsolated: globalThis.crossOriginIsolated,
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    scope.postMessage({ error: `${String(error)}${cause ? ` (${String(cause)})` : ''}` });
  }
};
