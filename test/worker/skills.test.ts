// Skills through the page ↔ worker protocol (a MessageChannel, the engine with a memory store): a
// folder with bytes and a Blob added as a job, listed, read whole, found, replaced and removed, and
// an invalid SKILL.md rejected with its typed error.
import { afterEach, describe, expect, it } from 'vitest';
import { LongshipError } from '../../src/errors.js';
import { connectLongship, type RemoteLongship } from '../../src/worker/connect.js';
import { createLongshipHost } from '../../src/worker/expose.js';
import { openTestLongship } from './fixture.js';

const S = 'viking://agent/skills';
const ports: MessagePort[] = [];

afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

async function connected(): Promise<RemoteLongship> {
  const host = createLongshipHost({ open: openTestLongship, locks: null });
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  host.connect(port1);
  return connectLongship(port2, { dispose: () => port2.close() });
}

const skillMd = `---
name: tide-tables
description: Reads tide tables and says when the harbour is safe to leave.
allowed-tools: Read
---
# Tides

Read reference/ports.md for each harbour's depth.
`;

describe('skills through the worker', () => {
  it('adds a folder as a job, lists it, gets it whole, finds it, replaces it and removes it', async () => {
    const longship = await connected();
    const job = longship.addSkill({
      files: {
        'SKILL.md': new TextEncoder().encode(skillMd),
        'reference/ports.md': new Blob(['# Ports\n\nBergen needs four metres of water at the quay.\n']),
      },
    });
    expect(typeof (await job.id)).toBe('number');
    expect(await job).toMatchObject({ uris: [`${S}/tide-tables`], added: 4, skipped: [] });
    expect(await longship.listSkills()).toEqual([
      {
        name: 'tide-tables',
        description: 'Reads tide tables and says when the harbour is safe to leave.',
        uri: `${S}/tide-tables`,
      },
    ]);
    expect(await longship.getSkill('tide-tables')).toEqual({
      name: 'tide-tables',
      description: 'Reads tide tables and says when the harbour is safe to leave.',
      uri: `${S}/tide-tables`,
      frontmatter: {
        name: 'tide-tables',
        description: 'Reads tide tables and says when the harbour is safe to leave.',
        'allowed-tools': 'Read',
      },
      body: "# Tides\n\nRead reference/ports.md for each harbour's depth.\n",
      files: ['SKILL.md', 'reference/ports.md'],
    });
    expect(await longship.read(`${S}/tide-tables/SKILL.md`)).toBe(skillMd);
    const found = await longship.find('when is it safe to leave the harbour', { limit: 3 });
    expect(found.skills.map((s) => s.uri)).toContain(`${S}/tide-tables`);

    await longship.addSkill(skillMd);
    expect((await longship.getSkill('tide-tables')).files).toEqual(['SKILL.md']);
    expect(await longship.removeSkill('tide-tables')).toMatchObject({ removed: 2 });
    expect(await longship.listSkills()).toEqual([]);
    expect((await longship.verify()).problems).toEqual([]);
    await longship.close();
  });

  it('removes a skill after the addition queued before it, not before', async () => {
    const longship = await connected();
    const added = longship.addSkill(skillMd);
    const removed = longship.removeSkill('tide-tables');
    expect(await added).toMatchObject({ added: 2 });
    expect(await removed).toMatchObject({ removed: 2 });
    expect(await longship.listSkills()).toEqual([]);
    await longship.close();
  });

  it('rejects an invalid SKILL.md, a missing skill and its removal with typed errors', async () => {
    const longship = await connected();
    const bad = longship.addSkill('---\nname: Tide Tables\ndescription: d\n---\n');
    const error = await bad.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LongshipError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/"name"/) });
    await expect(longship.getSkill('tide-tables')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(longship.removeSkill('tide-tables')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await longship.ls(S)).toEqual([]);
    await longship.close();
  });
});
