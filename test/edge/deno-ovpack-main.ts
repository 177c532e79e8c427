// Run by test/edge/deno-ovpack.test.ts with `deno run --sloppy-imports` and read and write
// permission on two folders only: the OVPack scenario (ovpack-scenario.ts) between two file
// stores, one in each folder. Prints one JSON line.
import { runOvpackScenario } from './ovpack-scenario.js';

declare const Deno: { args: string[]; version: { deno: string } };

const [source, target] = Deno.args;
const result = await runOvpackScenario({ stores: [source!, target!] });
console.log(JSON.stringify({ runtime: `deno ${Deno.version.deno}`, result }));
