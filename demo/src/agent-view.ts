// The agent panel: a chat whose replies are the context() block an agent's next prompt would get,
// with its citations, its tokens against a budget the visitor picks, and what was left out and why;
// "Commit session" shows what the commit wrote. Offline there is no LLM, and the panel says so; with
// the endpoint the visitor sets (agent-llm-form.ts), commits show the memories it extracted.
import type { LeftOut } from '../../src/assemble/pack.js';
import { type Agent, budgets, type Committed, startAgent, type Turn } from './agent.js';
import { renderLlmForm } from './agent-llm-form.js';
import type { Backend } from './backend.js';
import { h, score3 } from './dom.js';
import { type LlmSetting, savedLlm } from './llm-setting.js';
import './agent.css';

const why: Record<LeftOut['reason'], (entry: LeftOut) => string> = {
  budget: (e) =>
    `no layer of it fitted what was left of the budget${e.tokens ? ` (its smallest: ${e.tokens} tokens)` : ''}`,
  quota: () => 'its type had its quota of parts',
  duplicate: (e) => `the same text is already in the block${e.detail ? ` as ${e.detail}` : ''}`,
  delivered: (e) =>
    `an earlier turn of this session was given it${e.detail ? ` (at ${e.detail})` : ''}, unchanged since`,
  'no-good-match': (e) => `no good match: scored ${score3(e.score)}, at or under the threshold`,
};

const pagesOf = (pages: { first: number; last: number } | undefined) =>
  pages ? (pages.first === pages.last ? `p. ${pages.first}` : `pp. ${pages.first}–${pages.last}`) : '';

function renderContext(turn: Turn, llm: LlmSetting | undefined): HTMLElement {
  const { context, budget } = turn;
  const label = turn.preview
    ? `The same message at ${budget} tokens, as a fresh call gives it (without the session: its deliveries are neither left out nor recorded)`
    : llm
      ? `What the agent would be given for its next prompt (${llm.model} planned the queries; this block is the reply)`
      : 'What the agent would be given for its next prompt (no LLM here: this block is the reply)';
  const parts = context.parts.map((part) =>
    h(
      'li',
      { class: 'agent-part', 'data-uri': part.uri, 'data-type': part.type, 'data-layer': part.layer },
      h('span', { class: `agent-type agent-type-${part.type}` }, part.type),
      ' ',
      h('code', { class: 'agent-cite' }, part.uri),
      part.pages && h('span', { class: 'agent-pages' }, ` ${pagesOf(part.pages)}`),
      h(
        'span',
        { class: 'agent-meta' },
        ` · ${part.layer}${part.excerpt ? ' excerpt' : ''} · ${part.tokens} tokens · score ${score3(part.score)}`,
      ),
    ),
  );
  const leftOut = context.leftOut.map((entry) =>
    h(
      'li',
      { class: 'agent-left', 'data-uri': entry.uri, 'data-reason': entry.reason },
      h('code', { class: 'agent-cite' }, entry.uri),
      h('span', { class: 'agent-reason' }, ` ${entry.reason}: ${why[entry.reason](entry)}`),
    ),
  );
  return h(
    'div',
    {
      class: `agent-context${turn.preview ? ' agent-preview' : ''}`,
      'data-tokens': context.tokens,
      'data-budget': budget,
      'data-parts': context.parts.length,
    },
    h('p', { class: 'agent-who' }, label),
    h(
      'p',
      { class: 'agent-tokens' },
      h('meter', { min: 0, max: budget, value: context.tokens, 'aria-label': 'Tokens used of the budget' }),
      ` ${context.tokens} of ${budget} tokens (${context.tokenizer}), ${context.parts.length} parts`,
    ),
    parts.length > 0
      ? h('ul', { class: 'agent-parts', 'aria-label': 'Parts and their citations' }, ...parts)
      : h('p', { class: 'none' }, 'Nothing fitted, or nothing was found: the block is empty.'),
    context.text &&
      h('pre', { class: 'agent-block', tabindex: 0, 'aria-label': 'The assembled block' }, context.text),
    leftOut.length > 0 &&
      h(
        'div',
        {},
        h('p', { class: 'agent-sub' }, `Left out (${leftOut.length})`),
        h('ul', { class: 'agent-left-out', 'aria-label': 'Left out, and why' }, ...leftOut),
      ),
  );
}

/** What the commit's extraction gave: the memories, with their abstracts, or why there are none. */
function renderExtracted({ result, extracted }: Committed, llm: LlmSetting | undefined): HTMLElement {
  if (extracted.length > 0) {
    return h(
      'div',
      {},
      h('p', { class: 'agent-sub' }, `Memories ${llm?.model ?? 'the LLM'} extracted (${extracted.length})`),
      h(
        'ul',
        { class: 'agent-extracted', 'aria-label': 'Memories the LLM extracted' },
        ...extracted.map((node) =>
          h(
            'li',
            { class: 'agent-extracted-memory', 'data-uri': node.uri },
            h('code', { class: 'agent-cite' }, node.uri),
            h('span', { class: 'agent-abstract' }, node.abstract),
          ),
        ),
      ),
    );
  }
  const failed = result.extractions.find((report) => report.error);
  if (failed) {
    return h(
      'p',
      { class: 'agent-note agent-extract-failed' },
      `The LLM endpoint could not extract memories (${failed.error}). The archive is written; the next ` +
        'commit tries again.',
    );
  }
  if (llm) return h('p', { class: 'agent-note' }, `${llm.model} found nothing worth remembering here.`);
  return h(
    'p',
    { class: 'agent-note' },
    'No memories were extracted: extraction needs an LLM, and none is set (see "Use an LLM endpoint" ' +
      'above). What the commit wrote offline are these memory nodes: the conversation, archived with ' +
      'extractive abstracts. Later turns retrieve them, and the block cites them as <memory>.',
  );
}

function renderCommitted(committed: Committed, llm: LlmSetting | undefined): HTMLElement {
  const { result, archived } = committed;
  if (!result.archive)
    return h('p', { class: 'none' }, 'Nothing to commit: no message since the last commit.');
  return h(
    'div',
    { class: 'agent-committed', 'data-archive': result.archive },
    h(
      'p',
      {},
      `Committed ${result.messages} messages into `,
      h('code', { class: 'agent-cite' }, result.archive),
      '.',
    ),
    renderExtracted(committed, llm),
    h('p', { class: 'agent-sub' }, 'The archive'),
    h(
      'ul',
      { class: 'agent-memories', 'aria-label': 'Memory nodes the commit wrote' },
      ...archived.map((node) =>
        h(
          'li',
          { class: 'agent-memory', 'data-uri': node.uri },
          h('code', { class: 'agent-cite' }, node.uri),
          h('span', { class: 'agent-meta' }, ` · ${node.kind} · ${node.summaryKind}`),
          h('span', { class: 'agent-abstract' }, node.abstract),
        ),
      ),
    ),
  );
}

/** What the status line says of a turn, for those who do not see the block appear. */
const summary = ({ context, budget }: Turn) =>
  `${context.parts.length} parts, ${context.tokens} of ${budget} tokens, ${context.leftOut.length} left out.`;

function renderTurn(turn: Turn, llm: LlmSetting | undefined): HTMLElement {
  return h(
    'li',
    { class: 'agent-turn' },
    h('p', { class: 'agent-user' }, h('span', { class: 'agent-who' }, 'You: '), turn.message),
    renderContext(turn, llm),
  );
}

/**
 * Builds the panel in `root` and shows it, with a session of its own for this page load; a failure
 * stays in the panel, and the rest of the page works on.
 */
export async function mountAgent(root: HTMLElement, backend: Backend): Promise<void> {
  // The page's engine was opened with this tab's setting (backend.ts); a new one needs a new engine:
  // this page's closes (a SharedWorker then opens the next with the new options), and the page reloads.
  const restart = () => void backend.close().finally(() => location.reload());
  try {
    buildPanel(root, await startAgent(backend, `demo-${Date.now().toString(36)}`), savedLlm(), restart);
  } catch (error) {
    root.replaceChildren(
      h('h2', { id: 'agent-title' }, "An agent's view"),
      h('p', { class: 'error' }, `Could not start a session: ${String(error)}`),
    );
  }
  root.hidden = false;
}

function buildPanel(root: HTMLElement, agent: Agent, llm: LlmSetting | undefined, restart: () => void): void {
  const message = h('input', {
    id: 'agent-message',
    type: 'text',
    autocomplete: 'off',
    placeholder: 'e.g. publish a scoped package',
  });
  const budget = h(
    'select',
    { id: 'agent-budget' },
    ...budgets.map((b) => h('option', { value: b, selected: b === 2000 }, `${b} tokens`)),
  );
  const send = h('button', { type: 'submit', class: 'button' }, 'Send');
  const commit = h('button', { type: 'button', class: 'button', id: 'agent-commit' }, 'Commit session');
  const turns = h('ol', { class: 'agent-turns', 'aria-label': 'Conversation' });
  const committed = h('div', { class: 'agent-commits' });
  const status = h('p', { class: 'agent-status', role: 'status' });
  let last: { message: string; item: HTMLElement } | undefined;

  /** Runs `work` with the buttons off; the status says what it is doing, then what it did. */
  const busy = async (what: string, work: () => Promise<string>) => {
    send.disabled = commit.disabled = true;
    status.textContent = what;
    try {
      status.textContent = await work();
    } catch (error) {
      status.textContent = String(error);
    } finally {
      send.disabled = commit.disabled = false;
    }
  };
  const form = h('form', { class: 'agent-form', 'aria-label': 'Message the agent' });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = message.value.trim();
    if (text === '' || send.disabled) return;
    void busy('Assembling the context…', async () => {
      const turn = await agent.send(text, Number(budget.value));
      const item = renderTurn(turn, llm);
      turns.append(item);
      last = { message: text, item };
      message.value = '';
      return `Turn ${turns.childElementCount}: ${summary(turn)}`;
    });
  });
  // Another budget shows the last message's block again at it; the next message uses it too.
  budget.addEventListener('change', () => {
    const shown = last;
    if (!shown) return;
    void busy('Assembling again…', async () => {
      const turn = await agent.reassemble(shown.message, Number(budget.value));
      shown.item.querySelector('.agent-context')?.replaceWith(renderContext(turn, llm));
      return `The last message again: ${summary(turn)}`;
    });
  });
  commit.addEventListener('click', () => {
    const doing = llm
      ? `Committing the session (${llm.model} extracts memories)…`
      : 'Committing the session…';
    void busy(doing, async () => {
      const done = await agent.commit();
      committed.prepend(renderCommitted(done, llm));
      const n = done.extracted.length;
      const extracted = llm ? ` ${n} ${n === 1 ? 'memory' : 'memories'} extracted.` : '';
      return done.result.archive
        ? `Committed ${done.result.messages} messages; ${done.archived.length} memory nodes written.${extracted}`
        : 'Nothing to commit.';
    });
  });
  form.append(
    h('label', { for: 'agent-message' }, 'Message'),
    message,
    h('label', { for: 'agent-budget' }, 'Token budget'),
    budget,
    send,
  );
  root.replaceChildren(
    h('h2', { id: 'agent-title' }, "An agent's view"),
    h(
      'p',
      { class: 'hint' },
      'Write what a user would tell an agent. Each message goes into session ',
      h('code', {}, agent.sessionId),
      ", and context() assembles what the agent's next prompt would get under the token budget: " +
        'its parts with the URIs to cite, and what was left out and why. ' +
        (llm
          ? `${llm.model} plans each turn's queries and extracts memories at a commit; the reply is still that block.`
          : 'There is no LLM here, so the reply is that block.'),
    ),
    renderLlmForm(llm, restart),
    form,
    status,
    turns,
    h('div', { class: 'agent-commit-row' }, commit),
    committed,
  );
}
