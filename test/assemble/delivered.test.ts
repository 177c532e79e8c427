// The in-memory ledger of what each session was delivered: per store, per session, by URI.
import { expect, it } from 'vitest';
import { memoryDeliveredLedger } from '../../src/assemble/delivered.js';
import { openMemoryStore } from '../../src/store/memory/memory-store.js';

it('keeps each session’s deliveries apart, per store, replacing an entry by URI', async () => {
  const ledger = memoryDeliveredLedger();
  const [a, b] = [await openMemoryStore(), await openMemoryStore()];
  expect(await ledger.readDelivered(a, 's1')).toEqual(new Map());
  await ledger.recordDelivered(a, 's1', [
    { uri: 'viking://resources/x.md', hash: 'L0 h1' },
    { uri: 'viking://resources/y.md', hash: 'L2 h2' },
  ]);
  await ledger.recordDelivered(a, 's1', [{ uri: 'viking://resources/x.md', hash: 'L2 h3' }]);
  expect(await ledger.readDelivered(a, 's1')).toEqual(
    new Map([
      ['viking://resources/x.md', 'L2 h3'],
      ['viking://resources/y.md', 'L2 h2'],
    ]),
  );
  expect(await ledger.readDelivered(a, 's2')).toEqual(new Map());
  expect(await ledger.readDelivered(b, 's1')).toEqual(new Map());
  // What a reader does with its copy does not change the ledger.
  (await ledger.readDelivered(a, 's1')).clear();
  expect((await ledger.readDelivered(a, 's1')).size).toBe(2);
});
