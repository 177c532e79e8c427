// The web platform's types as Longship's public signatures name them, so that its declarations
// type-check in a project without the DOM lib (a Node server with `lib: ["ES2023"]`). Where the
// project has the platform's type (the DOM lib, or @types/node for some), each is that type;
// where it has not, each is the shape Longship uses of the object. Read through `typeof
// globalThis`, which names no global that may be missing (docs/guide/package.md).

/**
 * The global scope's type. Inlined in the API reference, which shows `typeof globalThis`.
 *
 * @inline
 */
type Global = typeof globalThis;

/** The instances a global class makes, where the project has that global. */
type InstanceOf<Name extends string, Otherwise> = Global extends {
  [K in Name]: abstract new (
    ...args: never[]
  ) => infer T;
}
  ? T
  : Otherwise;

/** A compiled `WebAssembly.Module` (it has no members to name). */
export type WasmModule = Global extends {
  WebAssembly: { Module: abstract new (...args: never[]) => infer T };
}
  ? T
  : object;

/** A `WebAssembly.Memory`. */
export type WasmMemory = Global extends {
  WebAssembly: { Memory: abstract new (...args: never[]) => infer T };
}
  ? T
  : { readonly buffer: ArrayBuffer; grow(delta: number): number };

/** An `IDBFactory` (the global `indexedDB`, or fake-indexeddb's in Node). */
export type IndexedDBFactory = InstanceOf<
  'IDBFactory',
  { open(name: string, version?: number): object; deleteDatabase(name: string): object }
>;

/** A Web Locks `LockManager` (`navigator.locks`). */
export type Locks = InstanceOf<
  'LockManager',
  { request(name: string, ...rest: unknown[]): Promise<unknown>; query(): Promise<unknown> }
>;

/** A dedicated module `Worker`. */
export type WebWorker = InstanceOf<'Worker', never>;

/** A `SharedWorker`. */
export type WebSharedWorker = InstanceOf<'SharedWorker', never>;

/** A `MessagePort` (the DOM's, or Node's from `MessageChannel`). */
export type Port = InstanceOf<'MessagePort', never>;

/** What can be moved to another thread rather than copied (an ArrayBuffer, a MessagePort, …). */
export type Movable = object;

/**
 * One side of a message channel: a worker, a port, a worker's global scope. The shape comlink
 * speaks over, named here so that the declarations need neither comlink's types nor the DOM's.
 */
export interface MessageEndpoint {
  // biome-ignore lint/suspicious/noExplicitAny: whatever structured clone carries
  postMessage(message: any, transfer?: Movable[]): void;
  // biome-ignore lint/suspicious/noExplicitAny: the platform's MessageEvent, not named here
  addEventListener(type: string, listener: (event: any) => void, options?: object): void;
  // biome-ignore lint/suspicious/noExplicitAny: as for addEventListener
  removeEventListener(type: string, listener: (event: any) => void, options?: object): void;
  start?: () => void;
}

/**
 * A File System Access handle: a `FileSystemFileHandle` (read with `getFile()`) or a
 * `FileSystemDirectoryHandle` (a picked folder, OPFS's `navigator.storage.getDirectory()`), walked
 * with its async iterator, which the DOM's types list only with `DOM.AsyncIterable`.
 */
export interface WebFileSystemHandle {
  readonly kind: 'file' | 'directory';
  readonly name: string;
}

/** A `FileList`: from `<input type=file multiple>` (or `webkitdirectory`), or a drop's `files`. */
export interface WebFileList {
  readonly length: number;
  item(index: number): Blob | null;
}
