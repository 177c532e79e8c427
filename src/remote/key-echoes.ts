// The forms in which a server can echo an API key back: what ApiKey redacts.

/**
 * One regular expression for every echo of `key`: the key itself in any case, with any of its
 * characters percent-encoded (`%2D`) or JSON-escaped (`\u002d`, `\/`), and its base64 (standard and
 * URL-safe alphabets, of the key as given, lower- and upper-cased) at each of the three alignments a
 * longer base64 run can put it at. Global, so `replace` removes them all.
 *
 * @example
 * keyEchoes('sk-abc').test('Bearer SK-ABC'); // true
 */
export function keyEchoes(key: string): RegExp {
  const plain = [...key].map(charForms).join('');
  const base64 = new Set<string>();
  for (const variant of new Set([key, key.toLowerCase(), key.toUpperCase()])) {
    for (let offset = 0; offset < 3; offset++) {
      const core = base64Core(variant, offset);
      // Too short a run would match ordinary text; a key that short has no secret to keep anyway.
      if (core.length < 4) continue;
      base64.add(core);
      base64.add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  // The plain forms are matched case-insensitively by spelling both cases out: base64 is case-sensitive.
  const alternatives = [plain, ...[...base64].map(escapeRegExp)];
  return new RegExp(alternatives.join('|'), 'g');
}

/** One character of the key: itself in either case, `%XX`, `\u00XX` (and `\/` for a slash). */
function charForms(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).padStart(2, '0');
  const forms = new Set([char, char.toLowerCase(), char.toUpperCase()].map(escapeRegExp));
  const hexPattern = [...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('');
  forms.add(`%${hexPattern}`);
  forms.add(`\\\\[uU]00${hexPattern}`);
  if (char === '/') forms.add('\\\\/');
  return `(?:${[...forms].join('|')})`;
}

/**
 * The base64 characters that depend on the key's bytes alone when the key starts `offset` bytes into
 * a base64-encoded run: those are what any such run contains, whatever surrounds the key.
 */
function base64Core(key: string, offset: number): string {
  const bytes = [...new Array<number>(offset).fill(0), ...[...key].map((c) => c.charCodeAt(0))];
  const encoded = btoa(String.fromCharCode(...bytes));
  const first = Math.ceil((8 * offset) / 6);
  const last = Math.floor((8 * bytes.length) / 6); // exclusive
  return encoded.slice(first, last);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
