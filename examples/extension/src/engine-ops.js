// What the engine answers, by operation: the offscreen document serves these on the engine's
// behalf (src/offscreen.js). Each takes and returns plain JSON; bad input is INVALID_ARGUMENT.
import { pageUri } from './page-uri.js';

const notes = 'viking://user/default/memories/notes';

function invalid(message) {
  return Object.assign(new Error(message), { code: 'INVALID_ARGUMENT' });
}

function text(value, name) {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`'${name}' must be a non-empty string`);
  return value;
}

/** The operations, over `engine()`: a promise of the Longship proxy. */
export function engineOps(engine) {
  return {
    /** Writes one page: its text under its URI, its URL and title in the node's meta. */
    async savePage({ url, title, text: body }) {
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw invalid(`'url' must be an http(s) URL`);
      const uri = pageUri(url);
      const name = typeof title === 'string' && title.trim() !== '' ? title.trim() : url;
      const content = `# ${name}\n\n${url}\n\n${text(body, 'text')}`;
      const meta = { url, title: name, savedAt: Date.now() };
      await (await engine()).write(uri, content, { parents: true, meta });
      return { uri, url, title: name };
    },

    /** find(): resources and memories, each with its title, link and snippet (its abstract). */
    async search({ query, limit = 10 }) {
      const longship = await engine();
      const found = await longship.find(text(query, 'query'), { limit });
      const hits = [...found.memories, ...found.resources].sort((a, b) => b.score - a.score);
      const results = await Promise.all(
        hits.map(async (hit) => {
          const { meta } = await longship.stat(hit.uri);
          return {
            uri: hit.uri,
            kind: hit.contextType,
            title: typeof meta?.title === 'string' ? meta.title : hit.uri.split('/').at(-1),
            url: typeof meta?.url === 'string' ? meta.url : null,
            snippet: hit.abstract,
            score: hit.score,
          };
        }),
      );
      return { results };
    },

    /** The block context() gives an agent for `query` within `budget` tokens. */
    async context({ query, budget = 500 }) {
      const block = await (await engine()).context(text(query, 'query'), { budget });
      return {
        text: block.text,
        tokens: block.tokens,
        budget: block.budget.tokens,
        leftOut: block.leftOut.length,
      };
    },

    /** A note of the user's, kept as a memory that find() and context() return. */
    async addMemory({ text: note }) {
      const uri = `${notes}/${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}.md`;
      await (await engine()).write(uri, text(note, 'text'), { parents: true });
      return { uri };
    },

    /** Every saved page, with its URL and title. */
    async pages() {
      const longship = await engine();
      const uris = await longship.glob('viking://resources/web/*/*');
      return Promise.all(
        uris.map(async (uri) => {
          const { meta } = await longship.stat(uri);
          return { uri, url: meta?.url ?? null, title: meta?.title ?? null };
        }),
      );
    },

    verify: async () => (await engine()).verify(),
  };
}

/** The names of the engine's operations, which the service worker forwards. */
export const engineOpNames = ['savePage', 'search', 'context', 'addMemory', 'pages', 'verify'];
