// One node opened: its title, and its L0 abstract, L1 overview and L2 content (a directory lists
// its children instead) as a tab set, each read from the worker when its tab is first shown.
// Overviews and content are Markdown, rendered without raw HTML (markdown.ts).
import type { Backend } from './backend.js';
import { h } from './dom.js';
import { renderMarkdown } from './markdown.js';
import { shortUri } from './results-view.js';

type Layer = 'L0' | 'L1' | 'L2';
const layers = ['L0', 'L1', 'L2'] as const;

const layerTitle: Record<Layer, string> = {
  L0: 'L0 · abstract',
  L1: 'L1 · overview',
  L2: 'L2 · content',
};

let nextId = 0;

export interface DetailOptions {
  onClose: () => void;
  /** Opens another node (a directory's child). */
  onOpen: (uri: string, isLeaf: boolean) => void;
}

async function loadLayer(
  backend: Backend,
  uri: string,
  isLeaf: boolean,
  layer: Layer,
  options: DetailOptions,
) {
  try {
    if (layer === 'L0') return h('p', { class: 'l0' }, (await backend.abstract(uri)) || '(empty)');
    if (layer === 'L1') {
      return h('div', { class: 'l1 markdown' }, renderMarkdown((await backend.overview(uri)) || '(empty)'));
    }
    if (isLeaf) return h('div', { class: 'l2 markdown' }, renderMarkdown(await backend.read(uri)));
    const children = await backend.ls(uri);
    return h(
      'ul',
      { class: 'children' },
      ...children.map((child) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              class: 'child',
              'data-uri': child.uri,
              onclick: () => options.onOpen(child.uri, child.kind === 'file'),
            },
            h('span', { class: `kind ${child.kind}`, 'aria-hidden': 'true' }),
            h('b', {}, typeof child.meta.title === 'string' ? child.meta.title : child.name),
            h('span', { class: 'child-abstract' }, child.abstract),
          ),
        ),
      ),
    );
  } catch (error) {
    return h('p', { class: 'error' }, String(error));
  }
}

export function renderDetail(
  backend: Backend,
  uri: string,
  isLeaf: boolean,
  options: DetailOptions,
): HTMLElement {
  const id = `detail-${++nextId}`;
  const body = h('div', {
    class: 'layer-body',
    role: 'tabpanel',
    id: `${id}-panel`,
    tabindex: 0,
    'data-layer': 'L0',
  });
  const tabs = layers.map((layer) =>
    h(
      'button',
      {
        class: 'tab',
        role: 'tab',
        id: `${id}-${layer}`,
        'aria-controls': body.id,
        'data-layer': layer,
        onclick: () => show(layer),
      },
      layerTitle[layer],
    ),
  );
  const tablist = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Layers' }, ...tabs);
  // Arrow keys move between the tabs (and show the tab moved to), Home and End to the ends.
  tablist.addEventListener('keydown', (event) => {
    const at = layers.indexOf(current);
    const to =
      event.key === 'ArrowRight'
        ? (at + 1) % layers.length
        : event.key === 'ArrowLeft'
          ? (at + layers.length - 1) % layers.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? layers.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    void show(layers[to]!);
    tabs[to]!.focus();
  });
  const loaded = new Map<Layer, Promise<Node>>();
  let current: Layer = 'L0';
  async function show(layer: Layer) {
    current = layer;
    for (const tab of tabs) {
      const on = tab.dataset.layer === layer;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
    }
    body.setAttribute('aria-labelledby', `${id}-${layer}`);
    body.dataset.layer = layer;
    body.dataset.loading = 'true';
    if (!loaded.has(layer)) loaded.set(layer, loadLayer(backend, uri, isLeaf, layer, options));
    const content = await loaded.get(layer)!;
    if (current !== layer) return;
    body.replaceChildren(content);
    delete body.dataset.loading;
  }
  void show('L0');
  const title = h('h2', { title: uri }, shortUri(uri));
  void backend.stat(uri).then(
    (info) => {
      if (typeof info.meta.title === 'string' && info.meta.title !== '') title.textContent = info.meta.title;
    },
    () => undefined,
  );
  return h(
    'article',
    { class: 'detail', 'data-uri': uri, 'aria-label': 'Opened result' },
    h(
      'header',
      {},
      title,
      h('button', { class: 'close', 'aria-label': 'Close (Escape)', onclick: options.onClose }, '×'),
    ),
    h('code', { class: 'full-uri' }, uri),
    tablist,
    body,
  );
}
