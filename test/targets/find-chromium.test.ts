// The browser tests' Chromium: where it is looked for, in which order, and what a machine without
// one is told. Fake browsers are shell scripts in a temporary folder; nothing is launched here.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChromiumSearch, findChromium } from './find-chromium.js';

const folder = mkdtempSync(join(tmpdir(), 'longship-find-chromium-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(path: string, body: string, mode: number): string {
  const at = join(folder, path);
  mkdirSync(join(at, '..'), { recursive: true });
  writeFileSync(at, body);
  chmodSync(at, mode);
  return at;
}

const browser = (path: string) => file(path, '#!/bin/sh\nexit 0\n', 0o755);
const empty = join(folder, 'nothing');
mkdirSync(empty);
// A machine with none of the places: no PATH entries, an empty Playwright cache, and a platform
// @sparticuz/chromium does not run on.
const bare: ChromiumSearch = {
  env: { PATH: empty, PLAYWRIGHT_BROWSERS_PATH: empty },
  platform: 'freebsd',
  arch: 'arm64',
};

describe('findChromium', () => {
  it('takes LONGSHIP_CHROMIUM first, and refuses one that cannot run, naming it', () => {
    const mine = browser('mine/chrome');
    const onPath = browser('bin/chromium');
    const env = { ...bare.env, PATH: join(folder, 'bin') };
    expect(findChromium({ ...bare, env })).toBe(onPath);
    expect(findChromium({ ...bare, env: { ...env, LONGSHIP_CHROMIUM: mine } })).toBe(mine);
    const text = file('mine/notes.txt', 'not a browser', 0o644);
    expect(() => findChromium({ ...bare, env: { ...env, LONGSHIP_CHROMIUM: text } })).toThrow(
      `LONGSHIP_CHROMIUM=${text} is not an executable file`,
    );
  });

  it('finds a browser on the PATH, passing over an empty or non-executable file in the way', () => {
    file('hidden/chromium', '', 0o755);
    file('hidden/chromium-browser', '#!/bin/sh\n', 0o644);
    const chrome = browser('later/google-chrome');
    const PATH = [join(folder, 'hidden'), join(folder, 'later')].join(':');
    expect(findChromium({ ...bare, env: { ...bare.env, PATH } })).toBe(chrome);
  });

  it("falls back on a build in Playwright's cache, the newest first", () => {
    const cache = join(folder, 'ms-playwright');
    browser('ms-playwright/chromium_headless_shell-1180/chrome-linux/headless_shell');
    const newest = browser('ms-playwright/chromium-1200/chrome-linux/chrome');
    expect(findChromium({ ...bare, env: { ...bare.env, PLAYWRIGHT_BROWSERS_PATH: cache } })).toBe(newest);
  });

  it('tells a machine with none of them how to get one', () => {
    expect(() => findChromium(bare)).toThrow(
      /LONGSHIP_CHROMIUM=.*\n.*apt install chromium.*\n.*playwright install/s,
    );
    expect(() => findChromium(bare)).toThrow('runs on Linux x64 only; this is freebsd arm64');
  });

  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'unpacks the Chromium of @sparticuz/chromium on Linux x64 when nothing else is there',
    () => {
      const linux = { ...bare, platform: 'linux', arch: 'x64' };
      expect(findChromium(linux)).toMatch(
        /node_modules\/\.cache\/longship-chromium\/[\d.]+\/(chromium|launcher)$/,
      );
    },
    120_000,
  );
});
