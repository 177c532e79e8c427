import { afterEach, describe, expect, it } from 'vitest';
import { isServiceWorker } from '../../src/env/runtime.js';

const scope = globalThis as { ServiceWorkerGlobalScope?: unknown };

describe('isServiceWorker', () => {
  afterEach(() => {
    delete scope.ServiceWorkerGlobalScope;
  });

  it('is false where there is no ServiceWorkerGlobalScope (Node, pages, workers)', () => {
    expect(isServiceWorker()).toBe(false);
  });

  it('is false where the scope exists but this global is not one (a page of a site with a service worker)', () => {
    scope.ServiceWorkerGlobalScope = class {};
    expect(isServiceWorker()).toBe(false);
  });

  it('is true where this global is a ServiceWorkerGlobalScope', () => {
    const ServiceWorkerGlobalScope = () => {};
    Object.defineProperty(ServiceWorkerGlobalScope, Symbol.hasInstance, {
      value: (value: unknown) => value === globalThis,
    });
    scope.ServiceWorkerGlobalScope = ServiceWorkerGlobalScope;
    expect(isServiceWorker()).toBe(true);
  });
});
