// Ctrl-C during `longship add`: the job stops between documents, what was committed stays whole,
// the store is closed (its lock let go), and the exit code is 130 as for any interrupted command.
// A server (`longship mcp`) told to stop closes as when its client hangs up.
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { longship, startLongship } from './run-cli.js';

const count = 600;
let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'longship-cli-interrupt-'));
  await mkdir(join(cwd, 'notes'));
  for (let i = 0; i < count; i++) {
    await writeFile(
      join(cwd, 'notes', `n${String(i).padStart(3, '0')}.md`),
      `Note ${i}: the meeting about project ${i % 13} moved to room ${i % 29}; bring the slides.\n`,
    );
  }
});

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

it('stops on SIGINT with exit 130, keeping the documents written, and the store opens again', async () => {
  const child = startLongship(['add', 'notes'], cwd);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    // The first document is committed: interrupt the rest.
    if (!stderr.includes('  1/') && (stderr + chunk).includes('  1/')) child.kill('SIGINT');
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  expect(code, stderr).toBe(130);
  expect(stderr).toMatch(/^longship: ABORTED: /m);
  const listed = await longship(['ls', 'viking://resources/notes', '--json'], cwd);
  expect(listed.code, listed.stderr).toBe(0);
  const kept = JSON.parse(listed.stdout).nodes.length;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(count);
  // Adding again finishes the rest and leaves what was kept as it is.
  const again = await longship(['add', 'notes', '--json', '-q'], cwd);
  expect(again.code, again.stderr).toBe(0);
  const [result] = JSON.parse(again.stdout).results;
  expect(result.uris).toHaveLength(count);
  expect(result.unchanged).toBeGreaterThanOrEqual(kept);
}, 120_000);

it('stops `longship mcp` on SIGTERM: the server closes, the store with it, exit 0', async () => {
  const child = startLongship(['mcp', '--store', 'served'], cwd);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.includes('over MCP on stdio')) child.kill('SIGTERM');
  });
  // stdin stays open: only the signal can end it.
  const [code] = await once(child, 'exit');
  expect(code, stderr).toBe(0);
  const listed = await longship(['ls', '--store', 'served'], cwd);
  expect(listed.code, listed.stderr).toBe(0);
}, 60_000);
