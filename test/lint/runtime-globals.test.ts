import { expect, it } from 'vitest';
import { deniedGlobals, globalReads } from '../../tools/lint/runtime-globals.js';

it('finds a denied global read through the global object, in each form', async () => {
  const denied = await deniedGlobals();
  expect([...denied]).toEqual(
    expect.arrayContaining(['process', 'Deno', 'indexedDB', 'navigator', 'location']),
  );
  const source = [
    'const a = (globalThis as { location?: { href: string } }).location?.href;',
    "const b = globalThis['process'];",
    'const c = self.navigator!;',
    'const d = (<any>window).indexedDB;',
    // Not globals: web standards everywhere, a property of something else, a name not denied.
    'const e = globalThis.fetch; const f = options.location; const g = globalThis.crypto?.subtle;',
  ].join('\n');
  expect(globalReads('x.ts', source, denied)).toEqual([
    'x.ts:1 globalThis.location',
    'x.ts:2 globalThis.process',
    'x.ts:3 self.navigator',
    'x.ts:4 window.indexedDB',
  ]);
});
