// The API reference (`npm run docs`) is built from the JSDoc by TypeDoc. Here it is checked, not
// written: typedoc.json treats every warning as an error (a broken {@link}, a public type that
// refers to one the reference cannot show), so a comment that rots fails the tests.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

it('builds the API reference from the JSDoc without a warning', async () => {
  const typedoc = promisify(execFile)(process.execPath, [
    'node_modules/typedoc/bin/typedoc',
    '--emit',
    'none',
  ]);
  const { stdout, stderr } = await typedoc;
  expect(`${stdout}${stderr}`).not.toMatch(/\[(warning|error)\]/);
}, 120_000);
