// The function chrome.scripting.executeScript runs in the tab: it must be self-contained (it is
// serialised, not imported), and it puts no library into the page. It returns the page's address,
// its title and its readable text, headings kept as Markdown.
export function extractReadable() {
  const root = document.querySelector('article') ?? document.querySelector('main') ?? document.body;
  const clone = root.cloneNode(true);
  const noise = 'script, style, noscript, template, nav, header, footer, aside, form, iframe, svg, canvas';
  for (const node of clone.querySelectorAll(noise)) node.remove();
  const blocks = 'h1, h2, h3, h4, h5, h6, p, li, pre, blockquote, figcaption, td, th, dt, dd';
  const parts = [];
  for (const element of clone.querySelectorAll(blocks)) {
    if (element.parentElement?.closest(blocks)) continue; // its text is in the outer block
    const text = element.textContent.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const level = /^H([1-6])$/.exec(element.tagName)?.[1];
    parts.push(
      level ? `${'#'.repeat(Number(level))} ${text}` : element.tagName === 'LI' ? `- ${text}` : text,
    );
  }
  const text = parts.length > 0 ? parts.join('\n\n') : clone.textContent.replace(/\s+/g, ' ').trim();
  const title = document.title.trim() || document.querySelector('h1')?.textContent.trim() || location.href;
  return { url: location.href, title, text };
}
