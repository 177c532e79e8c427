// Which entries of a folder are not added (docs/guide/retrieval.md, "Adding from disk"): the same
// rule for a folder walked in a worker and one walked on the page from a drop.

/**
 * Whether a folder's entry named `name` is left out: hidden entries (`.git`, `.env`) and
 * `node_modules`.
 *
 * @example
 * isLeftOut('.git'); // true
 * isLeftOut('guide.md'); // false
 */
export function isLeftOut(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}
