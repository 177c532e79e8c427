import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentHash, fnv1a64 } from '../../src/ingest/hash.js';

describe('contentHash', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is SHA-256 of the UTF-8 text where crypto.subtle exists', async () => {
    expect(await contentHash('hello')).toBe(
      'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
    );
    expect(await contentHash('')).toBe(
      'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('is stable for equal text and differs for different text', async () => {
    const text = 'Ünïcödé 日本 😀\n'.repeat(100);
    expect(await contentHash(text)).toBe(await contentHash(`${text}`));
    expect(await contentHash(text)).not.toBe(await contentHash(`${text} `));
  });

  it('falls back to FNV-1a 64 without crypto.subtle (insecure browser pages)', async () => {
    vi.stubGlobal('crypto', {});
    expect(await contentHash('a')).toBe('fnv1a64:af63dc4c8601ec8c');
  });
});

describe('fnv1a64', () => {
  it('matches the reference values', () => {
    expect(fnv1a64('')).toBe('fnv1a64:cbf29ce484222325');
    expect(fnv1a64('a')).toBe('fnv1a64:af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('fnv1a64:85944171f73967e8');
  });

  it('agrees with a BigInt reference on multi-byte text', () => {
    const reference = (text: string) => {
      let hash = 0xcbf29ce484222325n;
      for (const byte of new TextEncoder().encode(text))
        hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
      return `fnv1a64:${hash.toString(16).padStart(16, '0')}`;
    };
    for (const text of ['hello world', 'Ünïcödé 日本 😀', 'x'.repeat(1000)])
      expect(fnv1a64(text)).toBe(reference(text));
  });
});
