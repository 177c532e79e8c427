// A small element builder: the demo has no framework, and string HTML would need escaping.

type Child = Node | string | number | false | null | undefined;
type Props = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/**
 * `h('a', { class: 'x', href: '#', onclick: go }, 'text', child)`: props starting with `on` are
 * listeners, `false`/`undefined` props and children are left out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (value === true) element.setAttribute(key, '');
    else element.setAttribute(key, String(value));
  }
  element.append(
    ...children.filter((c): c is Node | string | number => c !== false && c != null).map(String2),
  );
  return element;
}

function String2(child: Node | string | number): Node | string {
  return typeof child === 'number' ? String(child) : child;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}

/** A score in [0, 1] with 3 decimals. */
export const score3 = (x: number | null | undefined): string => (x == null ? '–' : x.toFixed(3));
