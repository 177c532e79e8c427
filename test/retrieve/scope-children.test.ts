import { expect, it } from 'vitest';
import { loadScope, resolveRoots, type Scope, withReplaced } from '../../src/retrieve/scope.js';
import type { NodeRecord } from '../../src/store/store.js';
import { corpus } from './corpus.js';
import { buildTree } from './fixture.js';

/** Children by parent as URIs, computed from the nodes the way a scope defines them. */
function expectedChildren(scope: Scope): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const node of scope.nodes) {
    if (node.parent === null) continue;
    out[node.parent] ??= [];
    out[node.parent]!.push(node.uri);
  }
  return out;
}

const childrenOf = (scope: Scope) =>
  Object.fromEntries([...scope.children].map(([parent, nodes]) => [parent, nodes.map((n) => n.uri)]));

it("a scope's children, made when first read, and after in-place replacements whether made or not", async () => {
  const { sources } = await buildTree(corpus);
  const roots = resolveRoots(undefined, undefined);
  const fresh = await loadScope(sources, roots);
  expect(childrenOf(fresh)).toEqual(expectedChildren(fresh));
  expect(fresh.children).toBe(fresh.children);

  // One node replaced in place (a use recorded): its parent's list holds the new record.
  const old = fresh.nodes.find((node) => node.kind === 'file' && node.parent !== null)!;
  const node: NodeRecord = { ...old, useCount: old.useCount + 1 };
  const replacement = [{ old, node }];
  const unread = await loadScope(sources, roots);
  for (const held of [fresh, unread]) {
    const next = withReplaced(held, replacement);
    expect(childrenOf(next)).toEqual(expectedChildren(next));
    expect(next.children.get(node.parent!)).toContain(node);
    expect(next.children.get(node.parent!)).not.toContain(old);
    expect(next.nodes).toContain(node);
  }
  // The scope replaced is left as it was.
  expect(fresh.children.get(node.parent!)).toContain(old);
});
