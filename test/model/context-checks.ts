// What is checked of a context() result against the model (docs/guide/context.md): the budget, counted
// with the same tokenizer; each part a node the model has, shown at a layer it allows, with that
// layer's text; no URI twice; the parts and what was left out account for the hits; and with a
// session, nothing it was given before and unchanged since comes again at that layer or a poorer one.

import type { AssembledContext } from '../../src/assemble/context-options.js';
import { contextTypeOf, type VikingUri } from '../../src/context/uri.js';
import type { Longship } from '../../src/engine.js';
import type { SearchResult } from '../../src/retrieve/search.js';
import { ModelMismatch } from './checks.js';
import type { Delivery } from './session-layout.js';
import type { TreeModel } from './tree-model.js';

export type Layer = 'L0' | 'L1' | 'L2';
const rank: Record<Layer, number> = { L2: 0, L1: 1, L0: 2 };
const typeOrder = { memory: 0, resource: 1, skill: 2 } as const;
const quotaOf = { memory: 'memories', resource: 'resources', skill: 'skills' } as const;

/** A node's text at each layer, read once per check: L2 from the model, L1 and L0 from the API. */
export class LayerTexts {
  readonly #read = new Map<string, Promise<string>>();
  constructor(
    readonly model: TreeModel,
    readonly longship: Longship,
  ) {}

  /** The layer's text, trimmed as context() shows it; undefined where the node has no such layer. */
  async of(uri: string, layer: Layer): Promise<string | undefined> {
    const node = this.model.nodes.get(uri as VikingUri);
    if (!node) return undefined;
    if (layer === 'L2') return node.kind === 'file' ? (node.content ?? '').trim() : undefined;
    const key = `${layer} ${uri}`;
    if (!this.#read.has(key))
      this.#read.set(key, layer === 'L1' ? this.longship.overview(uri) : this.longship.abstract(uri));
    return (await this.#read.get(key)!).trim();
  }

  /** Whether what was delivered is still the node's text at that layer (the ledger's hash rule). */
  async unchanged(uri: string, delivered: Delivery): Promise<boolean> {
    return (await this.of(uri, delivered.layer)) === delivered.text;
  }
}

export interface ContextCall {
  label: string;
  budget: number;
  maxLayer: Layer | undefined;
  quotas: { memories?: number; resources?: number; skills?: number } | undefined;
  count: (text: string) => number | Promise<number>;
  tokenizer: string;
  /** What the session was given before this call; undefined without a session. */
  delivered: ReadonlyMap<string, Delivery> | undefined;
  /** search()'s hits for the same query and candidates, just before. */
  hits: SearchResult;
  /** Check the docs' word for a changed node that does not fit: left out for the budget. */
  changedIsBudget: boolean;
}

function fail(call: ContextCall, what: string): never {
  throw new ModelMismatch(`${call.label}: ${what}`);
}

/** The budget, the count, and the frame: `''` exactly when there are no parts. */
async function checkTokens(call: ContextCall, result: AssembledContext): Promise<void> {
  if (result.budget.tokens !== call.budget) fail(call, `budget ${result.budget.tokens}, not ${call.budget}`);
  if (result.tokenizer !== call.tokenizer) fail(call, `tokenizer ${result.tokenizer}, not ${call.tokenizer}`);
  if (result.tokens > call.budget) fail(call, `${result.tokens} tokens, over the budget of ${call.budget}`);
  const counted = await call.count(result.text);
  if (counted !== result.tokens) fail(call, `says ${result.tokens} tokens, the text counts ${counted}`);
  if ((result.text === '') !== (result.parts.length === 0))
    fail(call, `${result.parts.length} parts in a text of ${result.text.length} characters`);
}

/** A part's text is its node's at the layer it claims; an excerpt is passages of the L2. */
async function checkPart(
  call: ContextCall,
  texts: LayerTexts,
  part: AssembledContext['parts'][number],
): Promise<void> {
  const node = texts.model.nodes.get(part.uri as VikingUri);
  if (!node) fail(call, `part ${part.uri}, which the model does not have`);
  if (part.type !== contextTypeOf(part.uri as VikingUri)) fail(call, `part ${part.uri} typed ${part.type}`);
  if (rank[part.layer] < rank[call.maxLayer ?? 'L2']) fail(call, `part ${part.uri} at ${part.layer}`);
  const whole = await texts.of(part.uri, part.layer);
  if (whole === undefined) fail(call, `part ${part.uri} at ${part.layer}, which a ${node.kind} has not`);
  if (part.excerpt) {
    if (part.layer !== 'L2' || (call.maxLayer ?? 'L2') !== 'L2')
      fail(call, `an excerpt of ${part.uri}'s ${part.layer}`);
    const passages = part.text.split('\n\n').filter((passage) => passage !== '…');
    if (passages.length === 0 || passages.some((passage) => !whole.includes(passage)))
      fail(call, `the excerpt of ${part.uri} is not passages of its L2: ${JSON.stringify(part.text)}`);
  } else if (part.text !== whole) {
    fail(
      call,
      `part ${part.uri} at ${part.layer} is ${JSON.stringify(part.text)}, not ${JSON.stringify(whole)}`,
    );
  }
  if (!call.delivered) return;
  // Given before and unchanged: only a richer layer may come (after an excerpt, only the whole L2).
  const before = call.delivered.get(part.uri);
  if (!before || !(await texts.unchanged(part.uri, before))) return;
  const richer = before.excerpt
    ? part.layer === 'L2' && !part.excerpt
    : rank[part.layer] < rank[before.layer];
  if (!richer) fail(call, `gave ${part.uri} at ${part.layer} again (given ${shownAs(before)}, unchanged)`);
}

const shownAs = (delivered: Delivery) => (delivered.excerpt ? 'L2 excerpt' : delivered.layer);

/** Each left-out hit's reason holds: its type's quota reached, a duplicate of a part, delivered before. */
async function checkLeftOut(
  call: ContextCall,
  texts: LayerTexts,
  result: AssembledContext,
  left: AssembledContext['leftOut'][number],
): Promise<void> {
  if (!texts.model.nodes.has(left.uri as VikingUri))
    fail(call, `left out ${left.uri}, which the model has not`);
  const before = call.delivered?.get(left.uri);
  const unchanged = before !== undefined && (await texts.unchanged(left.uri, before));
  switch (left.reason) {
    case 'budget':
      if (!(typeof left.tokens === 'number' && left.tokens >= 1))
        fail(call, `${left.uri} costs ${left.tokens}`);
      // docs/guide/context.md, "Across turns": what was given is reported delivered when nothing richer fits.
      if (unchanged)
        fail(call, `${left.uri}, given ${shownAs(before!)} and unchanged, left out for the budget`);
      return;
    case 'quota': {
      const quota = call.quotas?.[quotaOf[left.type]];
      const shown = result.parts.filter((part) => part.type === left.type).length;
      // A part chosen may go again when the whole block counts over the budget (docs/guide/context.md, step 5).
      const trimmed = result.leftOut.some((other) => other.type === left.type && other.reason === 'budget');
      if (quota === undefined || shown > quota || (shown < quota && !trimmed))
        fail(call, `${left.uri} out for a quota of ${quota} (${shown} shown)`);
      return;
    }
    case 'duplicate':
      if (!result.parts.some((part) => part.uri === left.detail))
        fail(call, `${left.uri} a duplicate of ${left.detail}, which is no part`);
      return;
    case 'delivered':
      if (!before) fail(call, `${left.uri} left out as delivered, which the session was not given`);
      if (left.detail !== shownAs(before))
        fail(call, `${left.uri} delivered as ${left.detail}, not ${shownAs(before)}`);
      // A node that changed since comes back; if none of it fits, that is the budget's doing.
      if (call.changedIsBudget && !unchanged)
        fail(call, `${left.uri} changed since it was given, yet "delivered"`);
      return;
    default:
      fail(call, `${left.uri} left out for ${String(left.reason)}`);
  }
}

/** A hit neither shown nor left out must have nothing to show at `maxLayer` or below. */
async function checkAccounted(call: ContextCall, texts: LayerTexts, result: AssembledContext): Promise<void> {
  const hits = [...call.hits.memories, ...call.hits.resources, ...call.hits.skills].map((hit) => hit.uri);
  const accounted = [...result.parts, ...result.leftOut].map((item) => item.uri);
  if (new Set(accounted).size !== accounted.length) fail(call, `a URI twice in ${JSON.stringify(accounted)}`);
  for (const uri of accounted) if (!hits.includes(uri)) fail(call, `${uri} is no hit of search()`);
  const layers = (['L2', 'L1', 'L0'] as const).filter((layer) => rank[layer] >= rank[call.maxLayer ?? 'L2']);
  for (const uri of hits) {
    if (accounted.includes(uri)) continue;
    for (const layer of layers)
      if (await texts.of(uri, layer))
        fail(call, `hit ${uri} is neither shown nor left out, and has an ${layer}`);
  }
}

/** The order the block shows parts in: memories, resources, skills; best first; ties by URI. */
function checkOrder(call: ContextCall, result: AssembledContext): void {
  result.parts.forEach((part, i) => {
    if (!result.text.includes(`uri="${part.uri}" layer="${part.layer}"`))
      fail(call, `${part.uri} is not in the text`);
    if (!result.text.includes(part.text)) fail(call, `the text of ${part.uri} is not in the block`);
    const prev = result.parts[i - 1];
    if (!prev) return;
    const order = typeOrder[prev.type] - typeOrder[part.type] || part.score - prev.score;
    if (order > 0 || (order === 0 && prev.uri > part.uri)) fail(call, `${part.uri} shown after ${prev.uri}`);
  });
}

/** Every check of one result; the model's state is the one the call ran on. */
export async function checkContext(
  call: ContextCall,
  texts: LayerTexts,
  result: AssembledContext,
): Promise<void> {
  await checkTokens(call, result);
  for (const part of result.parts) await checkPart(call, texts, part);
  for (const left of result.leftOut) await checkLeftOut(call, texts, result, left);
  await checkAccounted(call, texts, result);
  checkOrder(call, result);
}
