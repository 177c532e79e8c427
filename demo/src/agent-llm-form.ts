// The agent panel's "Use an LLM endpoint (optional)" form: base URL, model and API key, kept in this
// tab's sessionStorage (llm-setting.ts). Saving reopens the page, whose worker then makes the LLM:
// from then on its requests go to that endpoint, the one place the demo reaches another origin.
import { h } from './dom.js';
import { type LlmSetting, problemOf, saveLlm } from './llm-setting.js';

/** The form, filled from `current`; `restart` closes this page's engine and loads the page again. */
export function renderLlmForm(current: LlmSetting | undefined, restart: () => void): HTMLElement {
  const field = (id: string, label: string, input: HTMLInputElement) =>
    h('p', { class: 'agent-llm-field' }, h('label', { for: id }, label), input);
  const baseUrl = h('input', {
    id: 'agent-llm-url',
    type: 'url',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'https://api.openai.com/v1',
  });
  const model = h('input', {
    id: 'agent-llm-model',
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'gpt-4o-mini',
  });
  const apiKey = h('input', {
    id: 'agent-llm-key',
    type: 'password',
    autocomplete: 'off',
    'aria-describedby': 'agent-llm-key-note',
  });
  // Properties, not attributes: the key stays out of the page's markup.
  baseUrl.value = current?.baseUrl ?? '';
  model.value = current?.model ?? '';
  apiKey.value = current?.apiKey ?? '';
  const problem = h('p', { class: 'agent-llm-problem', id: 'agent-llm-problem', role: 'alert' });
  const form = h(
    'form',
    { class: 'agent-llm-form', 'aria-label': 'LLM endpoint', novalidate: true },
    h(
      'p',
      { class: 'agent-note' },
      'With an endpoint set, the worker sends each search plan and each commit’s conversation to ',
      h('code', {}, 'POST {base URL}/chat/completions'),
      ' (any OpenAI-compatible server: OpenAI, Ollama, vLLM, LM Studio…). This is the only case where ' +
        'the demo talks to another origin, and only because you chose it. Saving reopens the page.',
    ),
    field('agent-llm-url', 'Base URL', baseUrl),
    field('agent-llm-model', 'Model', model),
    field('agent-llm-key', 'API key (optional)', apiKey),
    h(
      'p',
      { class: 'agent-llm-key-note', id: 'agent-llm-key-note' },
      'Kept in this tab’s sessionStorage only, gone when the tab closes; sent only to that endpoint.',
    ),
    problem,
    h(
      'p',
      { class: 'agent-llm-buttons' },
      h('button', { type: 'submit', class: 'button', id: 'agent-llm-save' }, 'Save and reopen'),
      current &&
        h(
          'button',
          {
            type: 'button',
            class: 'button',
            id: 'agent-llm-clear',
            onclick: () => {
              saveLlm(undefined);
              restart();
            },
          },
          'Stop using it',
        ),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const setting: LlmSetting = { baseUrl: baseUrl.value.trim(), model: model.value.trim() };
    if (apiKey.value !== '') setting.apiKey = apiKey.value;
    const why = problemOf(setting);
    problem.textContent = why ?? '';
    if (why) return;
    saveLlm(setting);
    restart();
  });
  const state = current
    ? h('span', { class: 'agent-llm-state' }, ` (on: ${current.model} at ${new URL(current.baseUrl).host})`)
    : '';
  return h(
    'details',
    { class: 'agent-llm' },
    h('summary', {}, 'Use an LLM endpoint (optional)', state),
    form,
  );
}
