// The only place that asks which runtime this is. Node cannot fetch() a file: URL;
// browsers, workers and Deno can. Cloudflare's workerd can do neither: its callers
// import the .wasm as a module and pass the compiled WebAssembly.Module instead. A service
// worker fetches, but disallows import() (docs/guide/extension.md#the-engine-in-the-service-worker).

/**
 * Node's file system, by a name no bundler resolves: a browser build never runs this branch,
 * and Vite warned of the module it externalised for it in every app's build.
 */
const nodeFs = 'node:fs/promises';

/** Reads a file shipped inside this package, given its URL relative to a module. */
export async function readPackageFile(url: URL): Promise<ArrayBuffer | Response> {
  if (url.protocol === 'file:' && typeof process !== 'undefined' && process.versions?.node) {
    const { readFile } = (await import(
      /* webpackIgnore: true */ /* @vite-ignore */ nodeFs
    )) as typeof import('node:fs/promises');
    const bytes = await readFile(url);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
  return fetch(url);
}

/** Where a page or a worker was loaded from (its `location`); undefined in Node and workerd. */
export function pageLocation(): { href: string; origin: string; protocol: string } | undefined {
  return (globalThis as { location?: { href: string; origin: string; protocol: string } }).location;
}

/** Whether this page or worker is cross-origin isolated: only then is there SharedArrayBuffer. */
export function isCrossOriginIsolated(): boolean {
  return globalThis.crossOriginIsolated === true;
}

/**
 * Whether this is a service worker (an extension's background, for one), where `import()` is
 * disallowed: onnxruntime-web's glue then comes from its WASM-only bundle, not from its `.mjs`.
 */
export function isServiceWorker(): boolean {
  const scope = (globalThis as { ServiceWorkerGlobalScope?: abstract new () => unknown })
    .ServiceWorkerGlobalScope;
  return typeof scope === 'function' && globalThis instanceof scope;
}

/** The page's `navigator.serviceWorker`, where there is one (src/worker/service-worker-port.ts). */
export function serviceWorkerContainer<T>(): T | undefined {
  return (globalThis as unknown as { navigator?: { serviceWorker?: T } }).navigator?.serviceWorker;
}

/** A service worker's `self.clients`, where this is one. */
export function serviceWorkerClients<T>(): T | undefined {
  return (globalThis as unknown as { clients?: T }).clients;
}

/** The global scope, whose `message` events a service worker hears. */
export function globalScope(): EventTarget {
  return globalThis as unknown as EventTarget;
}
