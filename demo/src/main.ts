// The demo page: starts Longship in a Worker, which fills a new store from the sample corpus's pack
// (or the page indexes the corpus, where the pack does not fit), searches as you type, and shows the
// results, a node's layers and the trace. Until the model has loaded, searches are answered by their
// words alone (BM25), and the results are searched again by meaning once it has.
import { packHash } from 'virtual:demo-pack';
import type { FolderEntry } from '../../src/ingest/input.js';
import type { QueueProgress } from '../../src/ingest/queue.js';
import { type FindMode, findDefaults } from '../../src/retrieve/settings.js';
import { mountAgent } from './agent-view.js';
import { type Backend, startBackend } from './backend.js';
import { corpusName, corpusSize, corpusVersion, loadCorpus } from './corpus.js';
import { renderDetail } from './detail-view.js';
import { byId, h } from './dom.js';
import { fromDrop, fromFileList, type PickedFolder, readFolder } from './folder-input.js';
import { wireResultKeys } from './result-keys.js';
import { renderLanding, renderResults } from './results-view.js';
import { markTracePath, renderTrace } from './trace-view.js';

type State = 'opening' | 'indexing' | 'ready' | 'error';

const params = new URLSearchParams(location.search);
const embedder = params.get('embedder') === 'words' ? 'words' : 'model';
const dbName = params.get('db') ?? (embedder === 'words' ? 'longship-demo-words' : 'longship-demo');
/** `?corpus=none` starts empty, for a folder of your own only. */
const withCorpus = params.get('corpus') !== 'none';
/** `?worker=dedicated`: a Worker of this tab's own instead of the SharedWorker of every tab. */
const workerKind = params.get('worker') === 'dedicated' ? 'dedicated' : 'shared';
const corpusKey = `${dbName}:corpus`;

const ui = {
  statusText: byId('status-text'),
  statusDetail: byId('status-detail'),
  progress: byId('progress'),
  progressBar: byId('progress-bar'),
  query: byId<HTMLInputElement>('query'),
  form: byId<HTMLFormElement>('search-form'),
  timing: byId('timing'),
  results: byId('results'),
  detail: byId('detail'),
  trace: byId('trace'),
  folderInput: byId<HTMLInputElement>('folder-input'),
  folderButton: byId<HTMLButtonElement>('folder-button'),
  dropOverlay: byId('drop-overlay'),
};

let backend: Backend;
let selected: string | undefined;
/**
 * Whether searches use the model: `loading` until its first query vector, answering by words alone
 * meanwhile; `failed` if it could not load. Also on the body, for the end-to-end tests.
 */
let model: 'loading' | 'ready' | 'failed' = 'loading';

function setModel(state: typeof model) {
  model = state;
  document.body.dataset.model = state;
}
/** Jobs indexing now; the state is `indexing` while there are any. */
let indexing = 0;

function setState(state: State, text: string, detail = '') {
  document.body.dataset.state = state;
  ui.statusText.textContent = text;
  ui.statusDetail.textContent = detail;
}

/** The latest progress not yet drawn, and the timer that draws it. */
let pendingProgress: { progress: QueueProgress; label: string } | undefined;
/** When the job's first document was finished, and how many were then: the estimate's base. */
let progressBase: { at: number; done: number } | undefined;
let progressTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Progress arrives several times a document; it is drawn at most every 100 ms, so that the main
 * thread does next to nothing while the worker indexes. (A timer, not requestAnimationFrame: a
 * background tab gets no frames, and its progress should still land.)
 */
function showProgress(progress: QueueProgress | undefined, label: string) {
  if (!progress) {
    clearTimeout(progressTimer);
    progressTimer = undefined;
    pendingProgress = undefined;
    ui.progress.hidden = true;
    progressBase = undefined;
    return;
  }
  pendingProgress = { progress, label };
  progressTimer ??= setTimeout(drawProgress, 100);
}

function drawProgress() {
  progressTimer = undefined;
  if (!pendingProgress) return;
  const { progress, label } = pendingProgress;
  pendingProgress = undefined;
  ui.progress.hidden = false;
  const reading = progress.phase === 'read';
  // Also on the body, for the end-to-end tests that stop the browser part-way: documents written.
  if (!reading) {
    document.body.dataset.done = String(progress.done);
    document.body.dataset.total = String(progress.total);
  }
  const fraction = progress.total > 0 ? progress.done / progress.total : 0;
  // A transform, not a width: the compositor moves it without a layout.
  ui.progressBar.style.transform = `scaleX(${fraction.toFixed(3)})`;
  ui.statusText.textContent = `${label}: ${progress.done} of ${progress.total || '…'} ${reading ? 'files read' : 'documents'}${reading ? '' : timeLeft(progress)}`;
  ui.statusDetail.textContent = progress.uri
    ? `${progress.phase} · ${progress.uri.replace('viking://', '')}`
    : progress.phase;
}

/**
 * ` · about 40 s left`, from the pace since the first finished document (reading and the model's
 * load come before it and would skew it), once there is a pace to go by.
 */
function timeLeft({ done, total }: QueueProgress): string {
  if (done === 0 || total === 0) return '';
  progressBase ??= { at: performance.now(), done };
  const finished = done - progressBase.done;
  if (finished < 2) return '';
  const seconds = (((performance.now() - progressBase.at) / finished) * (total - done)) / 1000;
  return seconds < 1
    ? ' · almost done'
    : ` · about ${seconds < 60 ? `${Math.ceil(seconds)} s` : `${Math.ceil(seconds / 60)} min`} left`;
}

/** Indexes a folder under viking://resources/<name>; resolves once every document is written. */
async function indexFolder(name: string, entries: FolderEntry[], label: string): Promise<void> {
  indexing++;
  setState('indexing', `${label}…`);
  const started = performance.now();
  try {
    const result = await backend.addResource(entries, {
      name,
      onProgress: (progress: QueueProgress) => showProgress(progress, label),
    });
    clearTimeout(progressTimer);
    drawProgress();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const skipped =
      result.skipped.length > 0 ? `, ${result.skipped.length} skipped (binary or too large)` : '';
    setState(
      'indexing',
      `${label}: done`,
      `${entries.length} files in ${seconds} s: ${result.added} added, ${result.changed} changed, ${result.unchanged} unchanged${skipped}`,
    );
  } finally {
    indexing--;
    showProgress(undefined, label);
    if (indexing === 0) document.body.dataset.state = 'ready';
  }
}

async function ensureCorpus(): Promise<void> {
  const stored = localStorage.getItem(corpusKey) === corpusVersion;
  const root = await backend.stat(`viking://resources/${corpusName}`).catch(() => undefined);
  // The model's worker fills a new store from the corpus's pack (pack-import.ts), which marks it.
  const present = root && (stored || root.meta.pack === packHash);
  if (present) return localStorage.setItem(corpusKey, corpusVersion);
  const entries = await loadCorpus();
  await indexFolder(corpusName, entries, `Indexing the npm documentation (${corpusSize} pages)`);
  localStorage.setItem(corpusKey, corpusVersion);
  // The model has just embedded every page: it is in.
  startModel();
}

let searchSeq = 0;
let debounce: ReturnType<typeof setTimeout> | undefined;

async function search(): Promise<void> {
  const query = ui.query.value.trim();
  const seq = ++searchSeq;
  if (query === '') {
    ui.results.replaceChildren(renderLanding(runQuery, withCorpus));
    ui.trace.replaceChildren();
    ui.timing.textContent = '';
    return;
  }
  const mode = (new FormData(ui.form).get('mode') ?? 'quick') as FindMode;
  const started = performance.now();
  try {
    // Scores are calibrated for the bundled model: at or under findDefaults.noGoodMatch there is no
    // good match (docs/guide/retrieval.md, "What a score means"). Hashed words have no calibration.
    // Until the model is ready, by words alone: those scores are BM25's, with no calibration either.
    const byWords = model !== 'ready';
    const calibrated = embedder === 'model' && !byWords;
    const scores = calibrated
      ? { scoreThreshold: findDefaults.noGoodMatch }
      : { calibration: false as const, ...(byWords ? { hybrid: { vector: false } } : {}) };
    const result = await backend.find(query, { limit: 10, mode, trace: true, ...scores });
    if (seq !== searchSeq) return;
    const ms = performance.now() - started;
    const how = model === 'loading' ? ' · by words while the model loads' : byWords ? ' · by words' : '';
    ui.timing.textContent = `${result.total} results · ${ms.toFixed(0)} ms${how}`;
    const shown = await renderResults(result, {
      backend,
      query,
      selected,
      // Uncalibrated scores (hashed words, BM25 alone): only an empty list is "no good match" there.
      weakBelow: calibrated ? findDefaults.noGoodMatch : 0,
      open: (item) => openDetail(item.uri, item.isLeaf),
      suggest: runQuery,
    });
    if (seq !== searchSeq) return;
    ui.results.replaceChildren(shown);
    ui.results.dataset.query = query;
    ui.results.dataset.by = byWords ? 'words' : 'meaning';
    // The opened node goes with the results it came from.
    if (selected && !shown.querySelector(`.result[data-uri="${CSS.escape(selected)}"]`)) closeDetail();
    ui.trace.replaceChildren(renderTrace(result));
    markTracePath(ui.trace, selected);
    startModel();
  } catch (error) {
    if (seq !== searchSeq) return;
    ui.results.replaceChildren(h('p', { class: 'error' }, String(error)));
  }
}

function runQuery(query: string) {
  ui.query.value = query;
  void search();
}

function openDetail(uri: string, isLeaf: boolean) {
  selected = uri;
  for (const button of ui.results.querySelectorAll<HTMLElement>('.result')) {
    button.classList.toggle('selected', button.dataset.uri === uri);
  }
  markTracePath(ui.trace, uri);
  ui.detail.replaceChildren(renderDetail(backend, uri, isLeaf, { onClose: closeDetail, onOpen: openDetail }));
  // Into the opened node, as into a dialog (on a phone it is below the results); Escape comes back.
  ui.detail.querySelector<HTMLElement>('[role=tab][aria-selected=true]')?.focus();
}

function closeDetail() {
  const opener =
    selected && ui.results.querySelector<HTMLElement>(`.result[data-uri="${CSS.escape(selected)}"]`);
  selected = undefined;
  ui.detail.replaceChildren();
  markTracePath(ui.trace, undefined);
  for (const button of ui.results.querySelectorAll('.result.selected')) button.classList.remove('selected');
  if (opener) opener.focus();
}

async function indexPicked(folder: PickedFolder | undefined) {
  if (!folder) return;
  try {
    const label = `Indexing ${folder.name} (${folder.entries.length} files)`;
    setState('indexing', `${label}: reading the files…`);
    const { entries, tooLarge } = await readFolder(folder);
    if (tooLarge.length > 0) console.warn(`left out as larger than 10 MB: ${tooLarge.join(', ')}`);
    if (entries.length === 0) throw new Error('every file is larger than 10 MB');
    await indexFolder(folder.name, entries, label);
    void search();
  } catch (error) {
    setState('error', `Could not index ${folder.name}`, String(error));
  }
}

function wireInput() {
  ui.query.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(search, 150);
  });
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(debounce);
    void search();
  });
  wireResultKeys(ui.query, ui.results);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && selected) closeDetail();
  });
  ui.folderButton.addEventListener('click', () => ui.folderInput.click());
  for (const radio of ui.form.querySelectorAll('input[name=mode]'))
    radio.addEventListener('change', () => search());
  ui.folderInput.addEventListener('change', () => {
    const files = ui.folderInput.files;
    if (files) void indexPicked(fromFileList(files));
    ui.folderInput.value = '';
  });
  let depth = 0;
  window.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    depth++;
    ui.dropOverlay.hidden = false;
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) ui.dropOverlay.hidden = true;
  });
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    ui.dropOverlay.hidden = true;
    if (event.dataTransfer) void fromDrop(event.dataTransfer).then(indexPicked);
  });
}

async function main() {
  const started = performance.now();
  setModel('loading');
  setState(
    'opening',
    'Opening the store…',
    embedder === 'words' ? 'hashed-words embedder' : 'bundled USE-lite model',
  );
  backend = await startBackend({
    name: dbName,
    embedder,
    worker: workerKind,
    corpus: withCorpus,
    onWait: () => setState('opening', 'Waiting for another tab to let go of the store…'),
  });
  // For the console (and the end-to-end tests): the engine's API, through comlink.
  Object.assign(window, { longship: backend });
  const openMs = performance.now() - started;
  wireInput();
  ui.results.replaceChildren(renderLanding(runQuery, withCorpus));
  // Live at once: what is indexed already is searchable while the rest of the corpus goes in.
  ui.query.disabled = false;
  if (withCorpus) await ensureCorpus();
  const top = await backend.ls('viking://resources');
  const names = top.map((node) => node.name).join(', ') || 'nothing yet';
  setState(
    'ready',
    indexing > 0 ? (ui.statusText.textContent ?? '') : 'Ready',
    `Store "${dbName}" opened in ${openMs.toFixed(0)} ms · resources: ${names}`,
  );
  ui.query.focus();
  if (ui.query.value.trim() !== '') void search();
  void mountAgent(byId('agent'), backend);
  if (embedder === 'model') setTimeout(startModel, modelDelayMs);
  else setModel('ready');
}

/**
 * The model's load holds the worker for a second or more (its session's start), so it waits until
 * the first search has been answered by words, or until the page has been live this long.
 */
const modelDelayMs = 1500;
let modelStarted = false;

function startModel() {
  if (modelStarted || embedder !== 'model') return;
  modelStarted = true;
  void waitForModel();
}

/**
 * Waits for the model by a search of its own (the first query vector is the model's load), then
 * searches the shown query again by meaning. A model that cannot load leaves searching by words.
 */
async function waitForModel() {
  try {
    await backend.find('npm', { limit: 1 });
    setModel('ready');
    if (ui.query.value.trim() !== '') void search();
  } catch (error) {
    setModel('failed');
    console.error('the model could not load:', error);
    ui.statusDetail.textContent = `The model could not load (${String(error)}): searching by words only.`;
  }
}

main().catch((error) => {
  setState('error', 'Longship could not start', String(error));
  console.error(error);
});
