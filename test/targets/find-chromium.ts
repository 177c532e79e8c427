// Which Chromium the browser tests and benchmarks run: `LONGSHIP_CHROMIUM`, else the system's, else
// Playwright's download cache, else the one inside the @sparticuz/chromium devDependency, so that
// `npm install && npm test` needs no browser on the machine (that package runs on Linux x64 only).
import { execFileSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, homedir, platform } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const systemNames = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const macApps = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** Where to look: this process's environment and platform unless a test says otherwise. */
export interface ChromiumSearch {
  env: Record<string, string | undefined>;
  platform: string;
  arch: string;
}

const here: ChromiumSearch = { env: process.env, platform: platform(), arch: arch() };

/** What a machine without any of them is told. */
export function noChromiumMessage(where: ChromiumSearch): string {
  return [
    'No Chromium for the browser tests. Any one of these works:',
    '  - LONGSHIP_CHROMIUM=/path/to/chromium (any Chromium or Chrome build)',
    '  - a system browser: `apt install chromium`, `brew install --cask chromium`, ...',
    "  - Playwright's download: `npx playwright install chromium`",
    `(the @sparticuz/chromium devDependency, tried last, runs on Linux x64 only; this is ${where.platform} ${where.arch})`,
  ].join('\n');
}

let found: string | undefined;

/** The Chromium executable to run; throws {@link noChromiumMessage} where there is none. */
export function findChromium(where: ChromiumSearch = here): string {
  const path =
    (where === here ? found : undefined) ??
    configured(where) ??
    system(where) ??
    playwrights(where) ??
    sparticuz(where);
  if (!path) throw new Error(noChromiumMessage(where));
  if (where === here) found = path;
  return path;
}

function configured(where: ChromiumSearch): string | undefined {
  const path = where.env.LONGSHIP_CHROMIUM;
  if (!path) return undefined;
  if (!isExecutable(path)) throw new Error(`LONGSHIP_CHROMIUM=${path} is not an executable file`);
  return path;
}

// An empty or non-executable file in the way (a hidden or half-removed browser) is no browser.
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    const stats = statSync(path);
    return stats.isFile() && stats.size > 0;
  } catch {
    return false;
  }
}

function system(where: ChromiumSearch): string | undefined {
  const folders = (where.env.PATH ?? '').split(delimiter).filter(Boolean);
  const candidates = [
    ...systemNames.flatMap((name) => folders.map((folder) => join(folder, name))),
    ...macApps,
  ];
  return candidates.find(isExecutable);
}

/** The build `npx playwright install chromium` (or `chromium-headless-shell`) put in its cache. */
function playwrights(where: ChromiumSearch): string | undefined {
  if (where === here) {
    const own = chromium.executablePath();
    if (isExecutable(own)) return own;
  }
  const cache =
    where.env.PLAYWRIGHT_BROWSERS_PATH ??
    (where.platform === 'darwin'
      ? join(homedir(), 'Library/Caches/ms-playwright')
      : join(homedir(), '.cache/ms-playwright'));
  if (!existsSync(cache)) return undefined;
  // Any revision: newest first, by the number in the folder's name.
  const builds = readdirSync(cache)
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => Number(b.split('-')[1]) - Number(a.split('-')[1]));
  for (const build of builds) {
    for (const executable of [
      'chrome-linux/chrome',
      'chrome-linux64/chrome',
      'chrome-linux/headless_shell',
    ]) {
      const path = join(cache, build, executable);
      if (isExecutable(path)) return path;
    }
    const shell = join(cache, build, 'chrome-headless-shell-linux64/chrome-headless-shell');
    if (isExecutable(shell)) return shell;
  }
  return undefined;
}

/**
 * @sparticuz/chromium ships Chromium brotli-compressed; its `executablePath()` unpacks it into the
 * temporary folder. It runs here in a child process whose TMPDIR is a folder of our own beside
 * node_modules, renamed into place when complete: test files start in parallel, and a half-written
 * binary must never be seen as done. The unpacked binary needs NSS; where the system lacks it, a
 * launcher script points the loader at the copy the package ships for Amazon Linux.
 */
function sparticuz(where: ChromiumSearch): string | undefined {
  if (where.platform !== 'linux' || where.arch !== 'x64') return undefined;
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    return undefined;
  }
  const root = resolve(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const cache = join(root, '..', '..', '.cache', 'longship-chromium', version);
  const ready = () => [join(cache, 'launcher'), join(cache, 'chromium')].find(isExecutable);
  const done = ready();
  if (done) return done;

  const staging = `${cache}.${process.pid}.${Date.now()}`;
  try {
    mkdirSync(staging, { recursive: true });
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { default: chromium, inflate } = await import(${JSON.stringify(pathToFileURL(entry).href)});
         await chromium.executablePath();
         await inflate(${JSON.stringify(join(root, 'bin', 'al2023.tar.br'))});`,
      ],
      { env: { ...process.env, TMPDIR: staging }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 },
    );
    if (lacksLibraries(join(staging, 'chromium'))) {
      writeFileSync(
        join(staging, 'launcher'),
        `#!/bin/sh\nhere="$(dirname "$0")"\nLD_LIBRARY_PATH="$here/al2023/lib\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/chromium" "$@"\n`,
        { mode: 0o755 },
      );
    }
    renameSync(staging, cache);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another process renamed its copy into place first: use that one.
    if (!ready())
      throw new Error(`@sparticuz/chromium could not be unpacked into ${cache}`, { cause: error });
  }
  return ready();
}

/** Whether the dynamic loader misses a library the binary needs (`ldd` says "not found"). */
function lacksLibraries(binary: string): boolean {
  try {
    return execFileSync('ldd', [binary], { encoding: 'utf8' }).includes('not found');
  } catch {
    return true;
  }
}
