import { expect, it } from 'vitest';
import { SerialQueue } from '../src/serial-queue.js';

it('runs tasks one at a time, in the order given', async () => {
  const queue = new SerialQueue();
  const log: string[] = [];
  const task = (name: string, ms: number) => async () => {
    log.push(`${name} start`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    log.push(`${name} end`);
    return name;
  };
  const results = await Promise.all([
    queue.run(task('a', 20)),
    queue.run(task('b', 0)),
    queue.run(() => 'c'),
  ]);
  expect(results).toEqual(['a', 'b', 'c']);
  expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
});

it("gives a task's failure to its own caller only, and runs the next one", async () => {
  const queue = new SerialQueue();
  const failed = queue.run(async () => {
    throw new Error('first');
  });
  const next = queue.run(async () => 'second');
  await expect(failed).rejects.toThrow('first');
  await expect(next).resolves.toBe('second');
});

it('idle() waits for every task given so far and never rejects', async () => {
  const queue = new SerialQueue();
  let done = false;
  void queue.run(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    done = true;
  });
  queue.run(() => Promise.reject(new Error('ignored'))).catch(() => undefined);
  await queue.idle();
  expect(done).toBe(true);
});
