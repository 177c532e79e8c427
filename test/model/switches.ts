// Switches of the model and fuzz tests for calls that once reached bugs (issue 24's items 7, 8 and
// 11), now fixed: on by default; `-name` in LONGSHIP_MODEL_SWITCHES (comma-separated) or with
// --switch turns one off, to tell a new failure from an old one (docs/model-test.md).

export interface ModelSwitches {
  /** Item 7: addResource targets outside the roots (`viking://evil`, `viking://user`), refused like write(). */
  outsideRootTargets: boolean;
  /** Item 11: verify() right after addResource() resolves, without waitProcessed() first. */
  verifyBeforeRefresh: boolean;
  /** Item 8: deeply nested JSON documents in the parser fuzz run, which must fail typed. */
  deepJson: boolean;
}

export const switchNames = ['outsideRootTargets', 'verifyBeforeRefresh', 'deepJson'] as const;

/** Every switch on but those named `-name` in `list`; an unknown name is an error. */
export function parseSwitches(list: string | undefined): ModelSwitches {
  const off = new Set<string>();
  for (const entry of (list ?? '').split(',').map((name) => name.trim())) {
    if (entry === '') continue;
    const name = entry.replace(/^-/, '');
    if (!(switchNames as readonly string[]).includes(name))
      throw new Error(`unknown switch ${name}; the switches are ${switchNames.join(', ')}`);
    if (entry.startsWith('-')) off.add(name);
  }
  return Object.fromEntries(switchNames.map((name) => [name, !off.has(name)])) as unknown as ModelSwitches;
}

/** From the environment: LONGSHIP_MODEL_SWITCHES=-deepJson turns that one off. */
export const envSwitches = (): ModelSwitches => parseSwitches(process.env.LONGSHIP_MODEL_SWITCHES);
