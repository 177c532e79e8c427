// `longship/uri`: the viking:// URI helpers (docs/guide/retrieval.md), to build and take apart the URIs
// that results carry.

export {
  basename,
  contextTypeOf,
  isVikingUri,
  isWithin,
  join,
  parentOf,
  parseUri,
  relativeTo,
  roots,
  segments,
  type VikingUri,
} from '../context/uri.js';
export type { ContextType } from '../store/store.js';
