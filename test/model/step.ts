// One step of the model test: an API call drawn by fast-check, held to the model, after which the
// tree (the whole of it after a reopen, what the step touched otherwise) and verify() are checked.

import type fc from 'fast-check';
import { before, checkTree } from './checks.js';
import type { ModelSwitches } from './switches.js';
import type { RealSystem } from './system.js';
import type { TreeModel } from './tree-model.js';

export type Cmd = fc.AsyncCommand<TreeModel, RealSystem>;

/** Counts the calls made, across runs, for the figures. */
export const counter = { ops: 0 };

export class Step implements Cmd {
  constructor(
    readonly label: string,
    readonly act: (model: TreeModel, real: RealSystem) => Promise<void>,
    readonly full = false,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: TreeModel, real: RealSystem): Promise<void> {
    counter.ops++;
    const since = before(model);
    await this.act(model, real);
    // Everything after a reopen, what the step touched otherwise (the whole tree's shape always).
    await checkTree(model, real.longship, this.label, this.full ? undefined : since);
  }
  toString(): string {
    return this.label;
  }
}

export const show = (value: unknown) => JSON.stringify(value);

/** Waits for the job, and (unless switched off) for the parents' refresh the queue runs after it. */
export async function ingested(
  real: RealSystem,
  job: PromiseLike<unknown>,
  switches: ModelSwitches,
): Promise<void> {
  try {
    await job;
  } finally {
    // A failed job schedules the refresh too.
    if (!switches.verifyBeforeRefresh) await real.longship.waitProcessed();
  }
}
