// Switches of the model and fuzz tests for calls that reach bugs of issue 24's numbered items, which
// are fixed on other branches: off by default, named in LONGSHIP_MODEL_SWITCHES (comma-separated)
// or with --switch to turn them on (docs/model-test.md).

export interface ModelSwitches {
  /** Item 7: addResource targets outside the roots (`viking://evil`, `viking://user`), refused like write(). */
  outsideRootTargets: boolean;
  /** Item 11: verify() right after addResource() resolves, without waitProcessed() first. */
  verifyBeforeRefresh: boolean;
  /** Item 8: deeply nested JSON documents in the parser fuzz run, which must fail typed. */
  deepJson: boolean;
}

export const switchNames = [
  'outsideRootTargets',
  'findAfterCrash',
  'verifyBeforeRefresh',
  'deepJson',
] as const;

/** The switches named in `list` on, the others off; an unknown name is an error. */
export function parseSwitches(list: string | undefined): ModelSwitches {
  const on = new Set(
    (list ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  for (const name of on) {
    if (!(switchNames as readonly string[]).includes(name))
      throw new Error(`unknown switch ${name}; the switches are ${switchNames.join(', ')}`);
  }
  return Object.fromEntries(switchNames.map((name) => [name, on.has(name)])) as unknown as ModelSwitches;
}

/** From the environment: LONGSHIP_MODEL_SWITCHES=outsideRootTargets,findAfterCrash. */
export const envSwitches = (): ModelSwitches => parseSwitches(process.env.LONGSHIP_MODEL_SWITCHES);
