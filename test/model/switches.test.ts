// The model test's switches: those of fixed bugs on, those of open bugs off, each turned either way
// by name (docs/internals/model-test.md, "Switches").
import { describe, expect, it } from 'vitest';
import { parseSwitches } from './switches.js';

describe('the model test switches', () => {
  it('turns on the fixed bugs’ switches by default (no open one has a switch now)', () => {
    expect(parseSwitches(undefined)).toEqual({
      outsideRootTargets: true,
      verifyBeforeRefresh: true,
      deepJson: true,
      changedIsBudget: true,
      sessionsAtOnce: true,
      largeDamagedPdfs: true,
      pdfStrayRejections: true,
    });
  });

  it('turns a switch off with -name and on with name or +name', () => {
    const switches = parseSwitches('-deepJson, -sessionsAtOnce,+changedIsBudget');
    expect(switches.deepJson).toBe(false);
    expect(switches.sessionsAtOnce).toBe(false);
    expect(switches.changedIsBudget).toBe(true);
    expect(switches.outsideRootTargets).toBe(true);
    expect(parseSwitches('-deepJson,deepJson').deepJson).toBe(true);
    expect(parseSwitches('-largeDamagedPdfs').largeDamagedPdfs).toBe(false);
  });

  it('refuses a name it does not know', () => {
    expect(() => parseSwitches('-deepjson')).toThrow(/unknown switch deepjson/);
  });
});
