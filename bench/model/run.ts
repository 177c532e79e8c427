// `npm run test:model -- --ops 1000000`: the model test of the public API (docs/internals/model-test.md) for as
// long as asked, seed after seed, round the three stores; or, with --fuzz, the parser fuzz run.
//
//   --ops N          API calls to make in all (default 100,000)
//   --store KIND     memory, idb or file (default: all three in turn)
//   --seed S         the first seed (default: the time); each batch of runs takes the next
//   --runs N         runs per batch (default 20), --commands N most calls per run (default 60)
//   --switch NAME    turn a switch on (NAME or +NAME) or off (-NAME) (test/model/switches.ts),
//                    also LONGSHIP_MODEL_SWITCHES
//   --fuzz           fuzz the parsers instead: --inputs N (default 100,000), --deadline-ms N
//
// It stops at the first failure and prints fast-check's report: the seed, the path and the shrunk
// sequence of calls, which `--seed S --runs R` with the same sizes replays.
import { parseArgs } from 'node:util';
import { loadUsearch } from '../../src/vector/usearch-module.js';
import { runFuzz } from '../../test/fuzz/run-fuzz.js';
import { runModel } from '../../test/model/run-model.js';
import { parseSwitches } from '../../test/model/switches.js';
import { type StoreKind, storeKinds } from '../../test/model/system.js';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '100000' },
    store: { type: 'string' },
    seed: { type: 'string' },
    runs: { type: 'string', default: '20' },
    commands: { type: 'string', default: '60' },
    switch: { type: 'string', multiple: true, default: [] },
    fuzz: { type: 'boolean', default: false },
    inputs: { type: 'string', default: '100000' },
    'deadline-ms': { type: 'string', default: '10000' },
  },
});
const number = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} takes a whole number, not ${text}`);
  return n;
};
const switches = parseSwitches(
  [process.env.LONGSHIP_MODEL_SWITCHES, ...values.switch].filter(Boolean).join(','),
);
let seed = values.seed === undefined ? Date.now() % 2 ** 31 : number('seed', values.seed);
const started = performance.now();
const seconds = () => (performance.now() - started) / 1000;

if (values.fuzz) {
  const inputs = number('inputs', values.inputs);
  const done = await runFuzz({
    seed,
    inputs,
    deadlineMs: number('deadline-ms', values['deadline-ms']),
    switches,
    log: console.log,
  });
  console.log(
    `fuzz: ${done.inputs} inputs in ${seconds().toFixed(0)} s (seed ${seed}), slowest ${done.slowestMs.toFixed(0)} ms`,
  );
} else {
  const kinds: readonly StoreKind[] = values.store ? [values.store as StoreKind] : storeKinds;
  if (!kinds.every((kind) => storeKinds.includes(kind)))
    throw new Error(`--store is one of ${storeKinds.join(', ')}`);
  const target = number('ops', values.ops);
  const usearch = await loadUsearch();
  const perStore = new Map<StoreKind, number>(kinds.map((kind) => [kind, 0]));
  let total = 0;
  for (let batch = 0; total < target; batch++, seed++) {
    const kind = kinds[batch % kinds.length]!;
    const options = {
      kind,
      usearch,
      seed,
      runs: number('runs', values.runs),
      maxCommands: number('commands', values.commands),
      switches,
    };
    const ops = await runModel(options).catch((error: unknown) => {
      console.error(
        `FAILED on the ${kind} store after ${total} calls: --store ${kind} --seed ${seed} --runs ${options.runs} --commands ${options.maxCommands}${values.switch.map((name) => ` --switch ${name}`).join('')}`,
      );
      console.error(error);
      process.exit(1);
    });
    total += ops;
    perStore.set(kind, perStore.get(kind)! + ops);
    const rate = total / seconds();
    console.log(
      `${total} calls in ${seconds().toFixed(0)} s (${rate.toFixed(0)}/s); seed ${seed} ${kind} ok; ` +
        [...perStore].map(([k, n]) => `${k} ${n}`).join(', '),
    );
  }
  console.log(`model test: ${total} calls, no failure, ${seconds().toFixed(0)} s`);
}
