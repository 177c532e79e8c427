// The parser fuzz run (docs/internals/model-test.md), bounded: seeded random and mutated documents of every
// format, each parsed directly and through addResource() in a child process under a deadline.
// A failure prints fast-check's report: the seed and the shrunk input.

import { expect, it } from 'vitest';
import { envSwitches } from '../model/switches.js';
import { runFuzz } from './run-fuzz.js';

const seed = Number(process.env.LONGSHIP_MODEL_SEED ?? 24);

it('parses every input to a result or a typed error, each within its deadline', async () => {
  const started = performance.now();
  const { inputs, slowestMs } = await runFuzz({
    seed,
    inputs: 800,
    deadlineMs: 10_000,
    switches: envSwitches(),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `parser fuzz: ${inputs} inputs in ${seconds.toFixed(1)} s (seed ${seed}), slowest ${slowestMs.toFixed(0)} ms`,
  );
  expect(inputs).toBe(800);
}, 120_000);
