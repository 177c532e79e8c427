// Where a saved page lives: viking://resources/web/<site>/<slug>, the site being the URL's host
// and the slug its path (and query), lowercased to letters, digits, dots and dashes. Saving the
// same address again replaces the page.
export function pageUri(address) {
  const url = new URL(address);
  const path = `${url.pathname}${url.search}`.toLowerCase();
  const slug = path
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 120);
  return `viking://resources/web/${url.host}/${slug || 'index'}`;
}
