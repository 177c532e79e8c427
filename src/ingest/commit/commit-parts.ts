// How the documents of one embedding call share commits: as many in one as can be applied together.
import { isWithin, type VikingUri } from '../../context/uri.js';
import type { NodeWrite } from './write-batch.js';

/** One commit: a document's writes and deletions (or, last, what belongs to no single document). */
export interface Unit {
  uri?: string;
  writes: NodeWrite[];
  deletions: string[];
}

/**
 * The units in commits of as many as can share one. One batch's deletions and writes are not applied
 * in unit order, so a unit starts a new commit when a URI it deletes is, is within or holds one an
 * earlier unit of the commit writes or deletes, or when it writes one that is or is within such a
 * deletion. (Different documents never overlap so: this is a guard, not the common path.)
 */
export function commitParts(units: readonly Unit[]): Unit[][] {
  const parts: Unit[][] = [];
  let part: Unit[] = [];
  let touched: VikingUri[] = [];
  let deleted: VikingUri[] = [];
  const overlap = (a: VikingUri, b: VikingUri) => isWithin(a, b) || isWithin(b, a);
  for (const unit of units) {
    const writes = unit.writes.map((write) => write.node.uri);
    const deletions = unit.deletions as VikingUri[];
    const clash =
      deletions.some((uri) => touched.some((other) => overlap(uri, other))) ||
      writes.some((uri) => deleted.some((other) => isWithin(uri, other)));
    if (clash) {
      parts.push(part);
      part = [];
      touched = [];
      deleted = [];
    }
    part.push(unit);
    touched.push(...writes, ...deletions);
    deleted.push(...deletions);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
