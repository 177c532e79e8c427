/// <reference types="vite/client" />

/** The sample corpus's pack, made by demo/pack-plugin.ts: its hash, and its path under the base URL. */
declare module 'virtual:demo-pack' {
  export const packHash: string;
  export const packPath: string;
}
