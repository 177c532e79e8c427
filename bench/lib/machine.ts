import { cpus, loadavg, totalmem } from 'node:os';

export interface MachineFigures {
  node: string;
  cpu: string;
  cores: number;
  memoryGb: number;
  /** Milliseconds to write each MB of freshly allocated memory the first time (page faults included). */
  firstTouchMsPerMb: number;
  /** The same memory written a second time. */
  secondTouchMsPerMb: number;
  loadAverage: number;
}

/**
 * What the figures depend on. First touch matters: on some VMs a page fault costs tens of microseconds,
 * and every index opened into fresh memory pays it for each page it writes.
 */
export function measureMachine(): MachineFigures {
  const mb = 128;
  const started = performance.now();
  const bytes = new Uint8Array(mb * 1024 * 1024);
  bytes.fill(1);
  const touched = performance.now();
  bytes.fill(2);
  const again = performance.now();
  return {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    cores: cpus().length,
    memoryGb: totalmem() / 1024 ** 3,
    firstTouchMsPerMb: (touched - started) / mb,
    secondTouchMsPerMb: (again - touched) / mb,
    loadAverage: loadavg()[0]!,
  };
}
