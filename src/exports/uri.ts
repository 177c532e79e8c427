// `longship/uri`: the viking:// URI helpers (docs/guide/retrieval.md), to build and take apart the URIs
// that results carry.

export {
  defaultNamespace,
  expandHome,
  type Namespace,
  namespaceRoots,
  roots,
} from '../context/namespace.js';
export {
  basename,
  contextTypeOf,
  isContainer,
  isVikingUri,
  isWithin,
  join,
  parentOf,
  parseUri,
  relativeTo,
  segments,
  type VikingUri,
} from '../context/uri.js';
export type { ContextType } from '../store/store.js';
