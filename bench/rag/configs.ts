// The find() configurations `npm run bench:rag` compares, by the names its reports use.
import type { FindOptions } from '../../src/retrieve/settings.js';

export const configurations: Record<string, FindOptions> = {
  /** What a caller gets with no options. */
  default: {},
  /** The flat search over every node in scope. */
  quick: { mode: 'quick' },
  /** The hierarchical walk. */
  thinking: { mode: 'thinking' },
  /** The flat search: nothing taken from directories, which compete with their files. */
  flat: { mode: 'quick', alpha: 1, directories: 'always' },
  /** The flat search over files only. */
  'flat-files': { mode: 'quick', alpha: 1, filter: { kind: 'file' } },
  /** Default, files only: no directory takes a slot. */
  files: { filter: { kind: 'file' } },
  'thinking-files': { mode: 'thinking', filter: { kind: 'file' } },
  /**
   * The defaults searched only inside the question's own document (see {@link inGoldDocument}):
   * what ranking the sections gives once the document is known, the bound on choosing it better.
   */
  'gold-document': {},
  /** Each side of the flat hybrid alone. */
  bm25: { mode: 'quick', alpha: 1, hybrid: { vector: false } },
  dense: { mode: 'quick', alpha: 1, hybrid: { lexical: false } },
};

export const defaultConfigs = ['default', 'thinking', 'files', 'flat', 'flat-files'];

/** The configurations whose `targetUri` is each question's own document rather than the resources. */
const inGoldDocument = new Set(['gold-document']);

export interface RagConfig {
  name: string;
  options: FindOptions;
  /** Search only the question's own document. */
  inGoldDocument: boolean;
}

/** The named configurations, in the order asked; an unknown name is an error. */
export function pickConfigs(names: readonly string[]): RagConfig[] {
  return names.map((name) => {
    const options = configurations[name];
    if (!options) {
      throw new Error(`unknown configuration ${name}; known: ${Object.keys(configurations).join(', ')}`);
    }
    return { name, options, inGoldDocument: inGoldDocument.has(name) };
  });
}
