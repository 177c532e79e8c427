// The service worker: the extension's triggers (the action, a context-menu item, a keyboard
// shortcut) and the relay to the engine. It holds no engine itself: Chromium stops it after about
// 30 s idle and gives it no Worker, so the engine lives in an offscreen document that this worker
// creates on demand (docs/guide/extension.md).
import { connectLongshipFromPage } from 'longship/extension';
import { engineOpNames } from './engine-ops.js';
import { extractReadable } from './extract.js';
import { send, serve } from './protocol.js';

let creating;

/** Makes sure the offscreen document that hosts the engine exists. */
async function ensureEngine() {
  const open = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] });
  if (open.length > 0) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: 'offscreen.html',
      reasons: ['WORKERS'],
      justification: 'Hosts the Longship engine (a worker with the on-device store and model).',
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}

/** One engine operation, through the offscreen document. */
async function callEngine(op, args) {
  await ensureEngine();
  return send('engine', op, args);
}

let remote;

/**
 * The engine's whole API (callbacks, signals, transfers), over a port the offscreen document hands
 * this service worker. A stopped service worker loses its ports; the next one asks again.
 */
function remoteEngine() {
  if (remote) return remote;
  const connecting = ensureEngine().then(() =>
    connectLongshipFromPage({ assets: chrome.runtime.getURL('longship/') }),
  );
  connecting.catch(() => {
    if (remote === connecting) remote = undefined;
  });
  remote = connecting;
  return connecting;
}

/** Saves a page given as { url, title, text }; resolves once it is stored. */
function savePage(page) {
  return callEngine('savePage', page);
}

/** Reads a tab's readable text in the tab (no library goes into the page) and saves it. */
async function saveTab(tabId) {
  const [frame] = await chrome.scripting.executeScript({ target: { tabId }, func: extractReadable });
  if (!frame?.result) throw Object.assign(new Error('the page gave no text'), { code: 'INVALID_ARGUMENT' });
  const saved = await savePage(frame.result);
  await chrome.action.setBadgeText({ tabId, text: '✓' });
  return saved;
}

function saveFromTrigger(tab) {
  if (tab?.id === undefined) return;
  saveTab(tab.id).catch(async (error) => {
    console.error('Longship could not save the page:', error);
    await chrome.action.setBadgeText({ tabId: tab.id, text: '!' });
    await chrome.action.setTitle({
      tabId: tab.id,
      title: `Not saved: ${error.code ?? 'ERROR'} ${error.message}`,
    });
  });
}

// Listeners go on at the top level, so that an event that wakes the worker finds them.
chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create({ id: 'save-page', title: 'Save this page to Longship', contexts: ['page'] });
});
chrome.action.onClicked.addListener((tab) => {
  // Opening the side panel needs the click's user gesture: before anything is awaited.
  chrome.sidePanel.open({ windowId: tab.windowId }).catch(() => undefined);
  saveFromTrigger(tab);
});
chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === 'save-page') saveFromTrigger(tab);
});
chrome.commands.onCommand.addListener((command, tab) => {
  if (command === 'save-page') saveFromTrigger(tab);
});

// The side panel's requests: the engine's operations, forwarded, and saving a tab.
const forwarded = Object.fromEntries(engineOpNames.map((op) => [op, (args) => callEngine(op, args)]));
serve('background', { ...forwarded, saveTab: ({ tabId }) => saveTab(tabId) });

// For the DevTools console of the service worker (and the end-to-end test).
globalThis.longshipExtension = { saveTab, savePage, callEngine, remoteEngine };
