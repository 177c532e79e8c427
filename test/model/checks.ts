// What is checked after every step of the model test: the tree (tree, ls, read, relations) is the
// model's, verify() finds nothing, and find() results name only nodes the model has.

import { deepStrictEqual } from 'node:assert/strict';
import type { TreeNode } from '../../src/context/tree.js';
import { contextTypeOf, parentOf, type VikingUri } from '../../src/context/uri.js';
import type { Longship } from '../../src/engine.js';
import { LongshipError } from '../../src/errors.js';
import type { FindResult } from '../../src/retrieve/retriever.js';
import type { ModelNode, Outcome, TreeModel } from './tree-model.js';

/** A difference between the API and the model; its message says which step and what differs. */
export class ModelMismatch extends Error {
  override readonly name = 'ModelMismatch';
}

function flatten(nodes: readonly TreeNode[], into: TreeNode[] = []): TreeNode[] {
  for (const node of nodes) {
    into.push(node);
    if (node.children) flatten(node.children, into);
  }
  return into;
}

/** Deep equality, or a ModelMismatch saying `what` differs and how. */
export function same(actual: unknown, expected: unknown, what: string): void {
  try {
    deepStrictEqual(actual, expected);
  } catch (error) {
    throw new ModelMismatch(`${what}: ${(error as Error).message}`);
  }
}

/**
 * Runs the API call and holds it to the model's outcome: the same LongshipError code, or success.
 * Any other error (untyped, or a code the model did not expect) is a mismatch.
 */
export async function expectOutcome<T>(label: string, expected: Outcome<unknown>, call: () => Promise<T>) {
  let value: T;
  try {
    value = await call();
  } catch (error) {
    if (!(error instanceof LongshipError)) {
      throw new ModelMismatch(`${label}: an untyped error: ${String(error)}`, { cause: error });
    }
    if ('value' in expected) {
      throw new ModelMismatch(`${label}: failed with ${error.code} (${error.message}); the model succeeded`, {
        cause: error,
      });
    }
    if (error.code !== expected.code) {
      throw new ModelMismatch(
        `${label}: failed with ${error.code} (${error.message}), not ${expected.code}`,
        {
          cause: error,
        },
      );
    }
    return undefined;
  }
  if ('code' in expected)
    throw new ModelMismatch(`${label}: succeeded; the model failed with ${expected.code}`);
  return value;
}

/** What a step may have changed: the model's nodes and relations before it. */
export interface Before {
  nodes: Map<VikingUri, ModelNode>;
  relations: Map<string, string>;
}

export const before = (model: TreeModel): Before => ({
  nodes: new Map(model.nodes),
  relations: new Map(model.relations),
});

/** The nodes whose content, listing or relations a step changed in the model (all of them without `since`). */
function touched(model: TreeModel, since: Before | undefined): Set<VikingUri> {
  if (!since) return new Set(model.nodes.keys());
  const uris = new Set<VikingUri>();
  for (const [uri, node] of model.nodes) if (since.nodes.get(uri) !== node) uris.add(uri);
  for (const uri of since.nodes.keys()) if (!model.nodes.has(uri)) uris.add(uri);
  for (const uri of [...uris]) {
    const parent = parentOf(uri);
    if (parent) uris.add(parent);
  }
  const relationsChanged = [...since.relations.keys()].filter(
    (k) => model.relations.get(k) !== since.relations.get(k),
  );
  for (const [key, reason] of model.relations)
    if (since.relations.get(key) !== reason) relationsChanged.push(key);
  for (const key of relationsChanged) for (const uri of key.split('\u0000')) uris.add(uri as VikingUri);
  return new Set([...uris].filter((uri) => model.nodes.has(uri)));
}

/**
 * The whole tree (URIs, kinds, sizes, context types) and verify(), after every step; the content,
 * listing and relations of each node the step touched in the model, or of every node without `since`.
 */
export async function checkTree(
  model: TreeModel,
  longship: Longship,
  label: string,
  since?: Before,
): Promise<void> {
  const listed = flatten(await longship.tree('viking://', { depth: 64 }));
  const actual = listed.map((n) => `${n.uri} ${n.kind} ${n.size} ${n.contextType}`).sort();
  const expected = model
    .listing()
    .map(({ uri, kind, size }) => `${uri} ${kind} ${size} ${contextTypeOf(uri) ?? 'memory'}`)
    .sort();
  same(actual, expected, `${label}: tree()`);
  for (const uri of touched(model, since)) {
    const node = model.nodes.get(uri)!;
    if (node.kind === 'file') same(await longship.read(uri), node.content, `${label}: read(${uri})`);
    else same((await longship.ls(uri)).map((n) => n.uri).sort(), model.children(uri), `${label}: ls(${uri})`);
    const relations = (await longship.relations(uri)).map((r) => `${r.from} ${r.to} ${r.reason}`).sort();
    same(
      relations,
      model
        .relationsOf(uri)
        .map((r) => `${r.from} ${r.to} ${r.reason}`)
        .sort(),
      `${label}: relations(${uri})`,
    );
  }
  const report = await longship.verify();
  if (!report.ok) throw new ModelMismatch(`${label}: verify(): ${report.problems.join('; ')}`);
}

/**
 * Every result is a node the model has, of the right kind, in the list of its context type (a skill
 * hit is a node under the skills root), and each list is best first.
 */
export function checkFound(model: TreeModel, result: FindResult, label: string): void {
  const lists = { memory: result.memories, resource: result.resources, skill: result.skills };
  if (result.total !== Object.values(lists).reduce((n, list) => n + list.length, 0))
    throw new ModelMismatch(`${label}: total ${result.total} is not the sum of the lists`);
  for (const [type, list] of Object.entries(lists)) {
    list.forEach((item, i) => {
      const node = model.nodes.get(item.uri as VikingUri);
      if (!node) throw new ModelMismatch(`${label}: found ${item.uri}, which the model does not have`);
      if (contextTypeOf(item.uri as VikingUri) !== type || item.contextType !== type)
        throw new ModelMismatch(`${label}: ${item.uri} (${item.contextType}) among the ${type} results`);
      if (item.isLeaf !== (node.kind === 'file'))
        throw new ModelMismatch(`${label}: ${item.uri} isLeaf ${item.isLeaf} for a ${node.kind}`);
      if (!Number.isFinite(item.score)) throw new ModelMismatch(`${label}: ${item.uri} scored ${item.score}`);
      if (i > 0 && item.score > list[i - 1]!.score)
        throw new ModelMismatch(`${label}: ${item.uri} scored above the result before it`);
    });
  }
}

/** The queries asked before and after each reopen, in both modes. */
const probes = [
  { query: 'river floods in spring', mode: 'quick' },
  { query: 'alpha gamma', mode: 'thinking' },
  { query: 'lake', mode: 'quick' },
] as const;

/** What find() answers to the probes now, to compare across a reopen, scores included. */
export async function findProbes(longship: Longship): Promise<unknown[]> {
  const results = [];
  for (const { query, mode } of probes) results.push(await longship.find(query, { mode }));
  return results;
}

export function sameFinds(before: unknown[], after: unknown[], label: string): void {
  same(after, before, `${label}: find() after the reopen`);
}
