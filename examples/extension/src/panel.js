// The side panel: find() over everything saved, the context() block for a question, and a memory
// to add. It reaches the engine only through the protocol (src/protocol.js).
import { send } from './protocol.js';

const $ = (id) => document.getElementById(id);

function say(message) {
  $('status').textContent = message;
}

function failed(error) {
  say(`${error.code ?? 'ERROR'}: ${error.message}`);
}

function resultItem({ title, url, snippet, uri, kind }) {
  const item = document.createElement('li');
  item.dataset.uri = uri;
  const heading = document.createElement(url ? 'a' : 'strong');
  heading.className = 'title';
  heading.textContent = kind === 'memory' ? `Memory: ${title}` : title;
  if (url) {
    heading.href = url;
    heading.target = '_blank';
  }
  const text = document.createElement('p');
  text.className = 'snippet';
  text.textContent = snippet;
  const where = document.createElement('div');
  where.className = 'uri';
  where.textContent = uri;
  item.append(heading, text, where);
  return item;
}

async function search(query) {
  say('Searching…');
  const { results } = await send('background', 'search', { query });
  $('results').replaceChildren(...results.map(resultItem));
  say(results.length === 0 ? 'Nothing found.' : `${results.length} found.`);
}

$('search').addEventListener('submit', (event) => {
  event.preventDefault();
  search($('query').value).catch(failed);
});

$('ask').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const budget = Number($('budget').value);
    const block = await send('background', 'context', { query: $('question').value, budget });
    $('context-summary').textContent =
      `${block.tokens} of ${block.budget} tokens; ${block.leftOut} left out.`;
    $('context').textContent = block.text || '(nothing found fits)';
  } catch (error) {
    failed(error);
  }
});

$('remember').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const { uri } = await send('background', 'addMemory', { text: $('memory').value });
    $('memory').value = '';
    say(`Remembered as ${uri}.`);
  } catch (error) {
    failed(error);
  }
});
