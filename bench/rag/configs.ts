// The find() configurations `npm run bench:rag` compares, by the names its reports use.
import type { FindOptions } from '../../src/retrieve/settings.js';

export const configurations: Record<string, FindOptions> = {
  /** What a caller gets with no options. */
  default: {},
  /** The flat search over every node in scope. */
  quick: { mode: 'quick' },
  /** The hierarchical walk. */
  thinking: { mode: 'thinking' },
  /** Default, files only: no directory takes a slot. */
  files: { filter: { kind: 'file' } },
  'thinking-files': { mode: 'thinking', filter: { kind: 'file' } },
  /** Each side of the flat hybrid alone. */
  bm25: { mode: 'quick', hybrid: { vector: false } },
  dense: { mode: 'quick', hybrid: { lexical: false } },
};

export const defaultConfigs = ['default', 'quick', 'thinking', 'files', 'thinking-files'];

/** The named configurations, in the order asked; an unknown name is an error. */
export function pickConfigs(names: readonly string[]): { name: string; options: FindOptions }[] {
  return names.map((name) => {
    const options = configurations[name];
    if (!options) {
      throw new Error(`unknown configuration ${name}; known: ${Object.keys(configurations).join(', ')}`);
    }
    return { name, options };
  });
}
