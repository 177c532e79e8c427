// One node opened: its L0 abstract, L1 overview and L2 content (a directory lists its children
// instead), each read from the worker when its tab is first shown.

import type { Backend } from './backend.js';
import { h } from './dom.js';
import { shortUri } from './results-view.js';

type Layer = 'L0' | 'L1' | 'L2';

const layerTitle: Record<Layer, string> = {
  L0: 'L0 · abstract',
  L1: 'L1 · overview',
  L2: 'L2 · content',
};

export function renderDetail(
  backend: Backend,
  uri: string,
  isLeaf: boolean,
  onClose: () => void,
): HTMLElement {
  const body = h('div', { class: 'layer-body', 'data-layer': 'L0' });
  const tabs = (['L0', 'L1', 'L2'] as const).map((layer) =>
    h(
      'button',
      { class: 'tab', role: 'tab', 'data-layer': layer, onclick: () => show(layer) },
      layerTitle[layer],
    ),
  );
  const loaded = new Map<Layer, Promise<Node>>();
  const load = async (layer: Layer): Promise<Node> => {
    try {
      if (layer === 'L0') return h('p', { class: 'l0' }, (await backend.abstract(uri)) || '(empty)');
      if (layer === 'L1') return h('pre', { class: 'l1' }, (await backend.overview(uri)) || '(empty)');
      if (isLeaf) return h('pre', { class: 'l2' }, await backend.read(uri));
      const children = await backend.ls(uri);
      return h(
        'ul',
        { class: 'children' },
        ...children.map((child) =>
          h(
            'li',
            {},
            h('span', { class: `kind ${child.kind}`, 'aria-hidden': 'true' }),
            h('b', {}, child.name),
            h('span', {}, ` — ${child.abstract}`),
          ),
        ),
      );
    } catch (error) {
      return h('p', { class: 'error' }, String(error));
    }
  };
  let current: Layer = 'L0';
  async function show(layer: Layer) {
    current = layer;
    for (const tab of tabs) tab.setAttribute('aria-selected', String(tab.dataset.layer === layer));
    body.dataset.layer = layer;
    body.dataset.loading = 'true';
    if (!loaded.has(layer)) loaded.set(layer, load(layer));
    const content = await loaded.get(layer)!;
    if (current !== layer) return;
    body.replaceChildren(content);
    delete body.dataset.loading;
  }
  void show('L0');
  return h(
    'article',
    { class: 'detail', 'data-uri': uri },
    h(
      'header',
      {},
      h('h2', { title: uri }, shortUri(uri)),
      h('button', { class: 'close', 'aria-label': 'Close', onclick: onClose }, '×'),
    ),
    h('code', { class: 'full-uri' }, uri),
    h('nav', { class: 'tabs', role: 'tablist' }, ...tabs),
    body,
  );
}
