// The reference model of the public API (docs/model-test.md): a plain map of URIs to kinds and
// contents, the relations, and each session directory's pending messages. Each operation either returns the
// error code the API must throw, leaving the model as it was, or applies itself and returns its value.

import { basename, contextTypeOf, isWithin, join, parentOf, type VikingUri } from '../../src/context/uri.js';
import { slugify } from '../../src/ingest/slug.js';
import { CHUNK_MESSAGES, chunkUriOf, PENDING_DIR } from '../../src/session/pending-messages.js';

export const TOP = 'viking://' as VikingUri;
/** The roots and their parents: always there, never moved or removed. */
export const PROTECTED: readonly VikingUri[] = [
  'viking://resources',
  'viking://user',
  'viking://user/memories',
  'viking://agent',
  'viking://agent/memories',
  'viking://agent/skills',
] as VikingUri[];
export const SESSIONS = 'viking://agent/memories/sessions' as VikingUri;
export const SKILLS = 'viking://agent/skills' as VikingUri;
/** A skill name the Agent Skills format allows (the model's names are ASCII). */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface ModelNode {
  kind: 'dir' | 'file';
  /** L2 of a file. */
  content?: string;
  /** A session archive's number (its meta.archive), which the next archive's number follows. */
  archive?: number;
  /**
   * A session directory's messages since its last commit: kept in chunks under its `pending`
   * directory (also in the model's nodes), so they survive a reopen or a crash, go with an rm and
   * travel with an mv.
   */
  pending?: { role: string; text: string }[];
}

export type Outcome<T = undefined> = { code: string } | { value: T };

const fail = (code: string): { code: string } => ({ code });
const ok = <T>(value: T): { value: T } => ({ value });
const relationKey = (from: string, to: string) => `${from}\u0000${to}`;
const pad = (n: number) => String(n).padStart(4, '0');

export class TreeModel {
  readonly nodes = new Map<VikingUri, ModelNode>(PROTECTED.map((uri) => [uri, { kind: 'dir' }]));
  /** `from\0to` → reason. */
  readonly relations = new Map<string, string>();

  children(uri: VikingUri): VikingUri[] {
    return [...this.nodes.keys()].filter((u) => parentOf(u) === uri).sort();
  }

  /** `uri` and everything below it. */
  subtree(uri: VikingUri): VikingUri[] {
    return [...this.nodes.keys()].filter((u) => isWithin(u, uri));
  }

  relationsOf(uri: VikingUri): { from: string; to: string; reason: string }[] {
    const found = [];
    for (const [key, reason] of this.relations) {
      const [from, to] = key.split('\u0000') as [string, string];
      if (from === uri || to === uri) found.push({ from, to, reason });
    }
    return found;
  }

  /** Where write() and mkdir() may put a node: a root, or inside one. */
  #writable(uri: VikingUri): { code: string } | undefined {
    if (uri === TOP) return fail('ALREADY_EXISTS');
    if (!PROTECTED.includes(uri) && !contextTypeOf(uri)) return fail('INVALID_ARGUMENT');
    return undefined;
  }

  /** The missing directories above `uri`, parents first, or the failure finding them. */
  #missingParents(uri: VikingUri, create: boolean): { code: string } | { value: VikingUri[] } {
    const missing: VikingUri[] = [];
    for (let parent = parentOf(uri); parent && parent !== TOP; parent = parentOf(parent)) {
      const node = this.nodes.get(parent);
      if (node) return node.kind === 'dir' ? ok(missing.reverse()) : fail('NOT_A_DIRECTORY');
      if (!create) return fail('NOT_FOUND');
      missing.push(parent);
    }
    return ok(missing.reverse());
  }

  #remove(uris: readonly VikingUri[]): void {
    const gone = new Set<string>(uris);
    for (const uri of uris) this.nodes.delete(uri);
    for (const key of [...this.relations.keys()]) {
      const [from, to] = key.split('\u0000') as [string, string];
      if (gone.has(from) || gone.has(to)) this.relations.delete(key);
    }
  }

  write(uri: VikingUri, content: string, parents: boolean): Outcome {
    const refused = this.#writable(uri);
    if (refused) return refused;
    if (this.nodes.get(uri)?.kind === 'dir') return fail('IS_A_DIRECTORY');
    const missing = this.#missingParents(uri, parents);
    if ('code' in missing) return missing;
    for (const dir of missing.value) this.nodes.set(dir, { kind: 'dir' });
    this.nodes.set(uri, { kind: 'file', content });
    return ok(undefined);
  }

  mkdir(uri: VikingUri, parents: boolean): Outcome {
    const refused = this.#writable(uri);
    if (refused) return refused;
    const found = this.nodes.get(uri);
    if (found) return parents && found.kind === 'dir' ? ok(undefined) : fail('ALREADY_EXISTS');
    const missing = this.#missingParents(uri, parents);
    if ('code' in missing) return missing;
    for (const dir of [...missing.value, uri]) this.nodes.set(dir, { kind: 'dir' });
    return ok(undefined);
  }

  rm(uri: VikingUri, recursive: boolean): Outcome<number> {
    if (uri === TOP || PROTECTED.includes(uri)) return fail('INVALID_ARGUMENT');
    if (!this.nodes.has(uri)) return fail('NOT_FOUND');
    const nodes = this.subtree(uri);
    if (nodes.length > 1 && !recursive) return fail('DIRECTORY_NOT_EMPTY');
    this.#remove(nodes);
    return ok(nodes.length);
  }

  mv(from: VikingUri, to: VikingUri): Outcome {
    if (from === TOP || PROTECTED.includes(from)) return fail('INVALID_ARGUMENT');
    const refused = this.#writable(to);
    if (refused) return refused;
    if (isWithin(to, from)) return fail('INVALID_ARGUMENT');
    if (!this.nodes.has(from)) return fail('NOT_FOUND');
    if (this.nodes.has(to)) return fail('ALREADY_EXISTS');
    const parents = this.#missingParents(to, false);
    if ('code' in parents) return parents;
    const moved = (uri: string) =>
      isWithin(uri as VikingUri, from) ? ((to + uri.slice(from.length)) as VikingUri) : (uri as VikingUri);
    const nodes = this.subtree(from).map((uri) => [uri, this.nodes.get(uri)!] as const);
    for (const [uri] of nodes) this.nodes.delete(uri);
    for (const [uri, node] of nodes) this.nodes.set(moved(uri), node);
    const relations = [...this.relations];
    this.relations.clear();
    for (const [key, reason] of relations) {
      const [a, b] = key.split('\u0000') as [string, string];
      this.relations.set(relationKey(moved(a), moved(b)), reason);
    }
    return ok(undefined);
  }

  link(from: VikingUri, to: VikingUri, reason: string): Outcome {
    if (from === to) return fail('INVALID_ARGUMENT');
    if (!this.nodes.has(from) || !this.nodes.has(to)) return fail('NOT_FOUND');
    this.relations.set(relationKey(from, to), reason);
    return ok(undefined);
  }

  unlink(from: VikingUri, to: VikingUri): Outcome<boolean> {
    return ok(this.relations.delete(relationKey(from, to)));
  }

  /** The directories of an ingestion's target chain, or INVALID_ARGUMENT when one is a file. */
  #targetChain(target: VikingUri): { code: string } | { value: VikingUri[] } {
    // A resource's target is viking://resources or a folder inside it, as write() keeps to the roots.
    if (target !== 'viking://resources' && !target.startsWith('viking://resources/')) {
      return fail('INVALID_ARGUMENT');
    }
    const chain: VikingUri[] = [];
    for (let uri: VikingUri | undefined = target; uri && uri !== TOP; uri = parentOf(uri)) chain.unshift(uri);
    if (chain.some((uri) => this.nodes.get(uri)?.kind === 'file')) return fail('INVALID_ARGUMENT');
    return ok(chain);
  }

  /**
   * A small document or a folder (`files`, relative paths) named `name` under `target`: the node
   * there becomes exactly the document (or the folder), whatever was below it goes.
   */
  addResource(target: VikingUri, name: string, files: ReadonlyMap<string, string> | string): Outcome {
    const chain = this.#targetChain(target);
    if ('code' in chain) return chain;
    const top = join(target, name);
    for (const dir of chain.value) if (!this.nodes.has(dir)) this.nodes.set(dir, { kind: 'dir' });
    this.#remove(this.subtree(top).filter((uri) => uri !== top));
    if (typeof files === 'string') {
      this.nodes.set(top, { kind: 'file', content: files });
      return ok(undefined);
    }
    this.nodes.set(top, { kind: 'dir' });
    for (const [path, content] of files) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++)
        this.nodes.set(join(top, parts.slice(0, i).join('/')), { kind: 'dir' });
      this.nodes.set(join(top, path), { kind: 'file', content });
    }
    return ok(undefined);
  }

  /** A skill replaces whatever is at `viking://agent/skills/<slug>`. */
  addSkill(name: string, content: string): Outcome {
    const uri = join(SKILLS, slugify(name, ''));
    this.#remove(this.subtree(uri).filter((u) => u !== uri));
    this.nodes.set(uri, { kind: 'file', content });
    return ok(undefined);
  }

  /**
   * A skill in the Agent Skills format: the directory `<name>` with `SKILL.md` (`text`) and `files`,
   * replacing whatever was there; a name the format refuses changes nothing.
   */
  addSkillFolder(name: string, text: string, files: ReadonlyMap<string, string>): Outcome {
    if (!SKILL_NAME.test(name)) return fail('INVALID_ARGUMENT');
    const uri = join(SKILLS, name);
    const planned = new Map<VikingUri, ModelNode>([
      [uri, { kind: 'dir' }],
      [join(uri, 'SKILL.md'), { kind: 'file', content: text }],
    ]);
    for (const [path, content] of files) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++)
        planned.set(join(uri, parts.slice(0, i).join('/')), { kind: 'dir' });
      planned.set(join(uri, path), { kind: 'file', content });
    }
    this.#remove(this.subtree(uri).filter((u) => !planned.has(u)));
    for (const [u, node] of planned) this.nodes.set(u, node);
    return ok(undefined);
  }

  /** Removes the skill `name` (a file, or a directory with a `SKILL.md` file) and what is below it. */
  removeSkill(name: string): Outcome<number> {
    const uri = join(SKILLS, SKILL_NAME.test(name) ? name : slugify(name, ''));
    const node = this.nodes.get(uri);
    const main = this.nodes.get(join(uri, 'SKILL.md'));
    if (!node || (node.kind === 'dir' && main?.kind !== 'file')) return fail('NOT_FOUND');
    const nodes = this.subtree(uri);
    this.#remove(nodes);
    return ok(nodes.length);
  }

  /** Stores the message in the session's directory, made (with the sessions root) when missing. */
  addMessage(session: string, role: string, text: string): Outcome {
    const sessionUri = join(SESSIONS, session);
    if ([SESSIONS, sessionUri].some((uri) => this.nodes.get(uri)?.kind === 'file'))
      return fail('NOT_A_DIRECTORY');
    for (const dir of [SESSIONS, sessionUri]) if (!this.nodes.has(dir)) this.nodes.set(dir, { kind: 'dir' });
    const node = this.nodes.get(sessionUri)!;
    const pending = [...(node.pending ?? []), { role, text }];
    this.nodes.set(sessionUri, { ...node, pending });
    // Stored as chunks of CHUNK_MESSAGES under `pending`; the model's texts are far too short to
    // fill one by its characters. A chunk's text is in its meta, so it reads as empty.
    const dir = join(sessionUri, PENDING_DIR);
    this.nodes.set(dir, { kind: 'dir' });
    this.nodes.set(chunkUriOf(dir, Math.ceil(pending.length / CHUNK_MESSAGES)), {
      kind: 'file',
      content: '',
    });
    return ok(undefined);
  }

  /** Archives the pending messages as `sessions/<id>/<n>/<i>-<role>`; the archive number follows the highest. */
  commitSession(session: string): Outcome<string | undefined> {
    const sessionUri = join(SESSIONS, session);
    const node = this.nodes.get(sessionUri);
    const messages = node?.kind === 'dir' ? (node.pending ?? []) : [];
    if (messages.length === 0) return ok(undefined);
    // The highest archive there, or node named like one (which an archive must not replace).
    const taken = this.children(sessionUri).flatMap((uri) => {
      const named = /^\d{1,9}$/.test(basename(uri)) ? [Number(basename(uri))] : [];
      return [this.nodes.get(uri)!.archive ?? 0, ...named];
    });
    const number = Math.max(0, ...taken) + 1;
    const archive = join(sessionUri, pad(number));
    if (this.nodes.has(archive)) return fail('ALREADY_EXISTS');
    this.nodes.set(archive, { kind: 'dir', archive: number });
    messages.forEach((message, i) => {
      this.nodes.set(join(archive, `${pad(i + 1)}-${message.role}`), { kind: 'file', content: message.text });
    });
    this.nodes.set(sessionUri, { ...node!, pending: [] });
    this.#remove(this.subtree(join(sessionUri, PENDING_DIR)));
    return ok(archive);
  }

  /** grep's answer: lines of files at or below `uri` containing `word`, in URI then line order. */
  grep(uri: VikingUri, word: string): Outcome<string[]> {
    if (!this.nodes.has(uri)) return fail('NOT_FOUND');
    const found: string[] = [];
    for (const at of this.subtree(uri).sort()) {
      const content = this.nodes.get(at)!.content;
      if (!content) continue;
      content.split(/\r?\n/).forEach((line, i) => {
        if (line.includes(word)) found.push(`${at}:${i + 1}:${line}`);
      });
    }
    return ok(found);
  }

  /** glob('**', { uri }): everything below `uri`, sorted; nothing when it does not exist. */
  below(uri: VikingUri): VikingUri[] {
    return this.subtree(uri)
      .filter((u) => u !== uri)
      .sort();
  }
}
