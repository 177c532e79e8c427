// L0 and L1 of a file written without a summarizer: plain cuts of its text.

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Cuts at a word boundary with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${space > max / 2 ? room.slice(0, space) : room}…`;
}

/** The L0 without a summarizer: the first sentence, at most 256 characters. */
export function firstSentence(content: string): string {
  const text = flat(content.replace(/^#+\s*/gm, ''));
  const end = text.search(/[.!?](\s|$)/);
  return cut(end >= 0 ? text.slice(0, end + 1) : text, 256);
}

/** The L1 without a summarizer: the opening of the content. */
export function opening(content: string): string {
  return cut(flat(content), 1500);
}
