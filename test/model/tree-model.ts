// The reference model of the public API (docs/internals/model-test.md): a plain map of URIs to kinds and
// contents, the relations, each session directory's state (session-layout.ts) and what the meta of
// skills says. Each operation either returns the error code the API must throw, leaving the model as
// it was, or applies itself and returns its value.

import {
  basename,
  contextTypeOf,
  isContainer,
  isWithin,
  join,
  parentOf,
  type VikingUri,
} from '../../src/context/uri.js';
import { slugify } from '../../src/ingest/slug.js';
import { fail, type Outcome, ok } from './outcome.js';
import { type SessionState, stateNodes } from './session-layout.js';
import { SessionsModel } from './session-model.js';

export type { Outcome } from './outcome.js';

export const TOP = 'viking://' as VikingUri;
/** The roots and their parents: always there, never moved or removed. */
export const PROTECTED: readonly VikingUri[] = [
  'viking://resources',
  'viking://user',
  'viking://user/default',
  'viking://user/default/memories',
  'viking://agent',
  'viking://agent/default',
  'viking://agent/default/memories',
  'viking://agent/skills',
] as VikingUri[];
export const SKILLS = 'viking://agent/skills' as VikingUri;
/** A skill name the Agent Skills format allows (the model's names are ASCII). */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface ModelNode {
  kind: 'dir' | 'file';
  /** L2 of a file. */
  content?: string;
  /** A session archive's number (its meta.archive), which the next archive's number follows. */
  archive?: number;
  /** A session directory's state (session-layout.ts): pending messages, what context() delivered. */
  session?: SessionState;
  /**
   * The name listSkills() gives the node, as its meta keeps it: a skill's name (addSkill); `null`
   * where ingestion wrote a title the model does not know (addResource names documents after
   * their headings); none: the node's name. write() keeps it, mv carries it.
   */
  title?: string | null;
  /** A skill's description, as addSkill keeps it in the meta; none: the node's L0. */
  description?: string;
}

/** A skill as listSkills() lists it; `undefined` where the model leaves it to the node's title or L0. */
export interface ModelSkill {
  uri: VikingUri;
  name: string | undefined;
  description: string | undefined;
}

const relationKey = (from: string, to: string) => `${from}\u0000${to}`;

export class TreeModel {
  readonly nodes = new Map<VikingUri, ModelNode>(PROTECTED.map((uri) => [uri, { kind: 'dir' }]));
  /** `from\0to` → reason. */
  readonly relations = new Map<string, string>();
  /** The sessions' calls, on the same nodes. */
  readonly sessions = new SessionsModel(this);

  /** What tree() lists: every node, with what the session directories show of their state. */
  listing(): { uri: VikingUri; kind: 'dir' | 'file'; size: number }[] {
    return [
      ...[...this.nodes].map(([uri, node]) => ({ uri, kind: node.kind, size: node.content?.length ?? 0 })),
      ...this.#stateNodes([...this.nodes.keys()]),
    ];
  }

  /** The nodes standing for the session state of directories among `uris` (session-layout.ts). */
  #stateNodes(uris: readonly VikingUri[]) {
    return uris.flatMap((uri) => {
      const node = this.nodes.get(uri)!;
      return node.session ? stateNodes(uri, node) : [];
    });
  }

  /** ls(uri), sorted. */
  children(uri: VikingUri): VikingUri[] {
    return this.listing()
      .map((n) => n.uri)
      .filter((u) => parentOf(u) === uri)
      .sort();
  }

  /** How many nodes an rm of `uri` removes: the subtree, and its session state's nodes. */
  removedCount(uri: VikingUri): number {
    const nodes = this.subtree(uri);
    return nodes.length + this.#stateNodes(nodes).length;
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

  /**
   * Where write() and mkdir() may put a node: a file where the URI's shape gives a context type, a
   * directory there or at a namespace's own directory (viking://user/{id}, viking://agent/{id}).
   */
  #writable(uri: VikingUri, kind: 'file' | 'dir'): { code: string } | undefined {
    if (uri === TOP) return fail('ALREADY_EXISTS');
    if (!contextTypeOf(uri) && !(kind === 'dir' && isContainer(uri))) return fail('INVALID_ARGUMENT');
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

  /** Takes the nodes out, with the relations from or to them. */
  removeNodes(uris: readonly VikingUri[]): void {
    const gone = new Set<string>(uris);
    for (const uri of uris) this.nodes.delete(uri);
    for (const key of [...this.relations.keys()]) {
      const [from, to] = key.split('\u0000') as [string, string];
      if (gone.has(from) || gone.has(to)) this.relations.delete(key);
    }
  }

  write(uri: VikingUri, content: string, parents: boolean): Outcome {
    const refused = this.#writable(uri, 'file');
    if (refused) return refused;
    if (this.nodes.get(uri)?.kind === 'dir') return fail('IS_A_DIRECTORY');
    const missing = this.#missingParents(uri, parents);
    if ('code' in missing) return missing;
    for (const dir of missing.value) this.nodes.set(dir, { kind: 'dir' });
    // write() keeps the meta of the file it replaces: a skill's name and description stay.
    const { title, description } = this.nodes.get(uri) ?? {};
    this.nodes.set(uri, {
      kind: 'file',
      content,
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
    });
    return ok(undefined);
  }

  mkdir(uri: VikingUri, parents: boolean): Outcome {
    const refused = this.#writable(uri, 'dir');
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
    const count = this.removedCount(uri);
    if (count > 1 && !recursive) return fail('DIRECTORY_NOT_EMPTY');
    this.removeNodes(nodes);
    return ok(count);
  }

  mv(from: VikingUri, to: VikingUri): Outcome {
    if (from === TOP || PROTECTED.includes(from)) return fail('INVALID_ARGUMENT');
    const refused = this.#writable(to, 'dir');
    if (refused) return refused;
    if (isWithin(to, from)) return fail('INVALID_ARGUMENT');
    if (!this.nodes.has(from)) return fail('NOT_FOUND');
    if (this.nodes.get(from)!.kind === 'file' && this.#writable(to, 'file')) return fail('INVALID_ARGUMENT');
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
    // Ingestion titles what it writes, documents after their headings: titles the model leaves open.
    for (const dir of chain.value)
      if (!this.nodes.has(dir)) this.nodes.set(dir, { kind: 'dir', title: null });
    this.removeNodes(this.subtree(top).filter((uri) => uri !== top));
    if (typeof files === 'string') {
      this.nodes.set(top, { kind: 'file', content: files, title: null });
      return ok(undefined);
    }
    this.nodes.set(top, { kind: 'dir', title: null });
    for (const [path, content] of files) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++)
        this.nodes.set(join(top, parts.slice(0, i).join('/')), { kind: 'dir', title: null });
      this.nodes.set(join(top, path), { kind: 'file', content, title: null });
    }
    return ok(undefined);
  }

  /** A skill replaces whatever is at `viking://agent/skills/<slug>`. */
  addSkill(name: string, description: string, content: string): Outcome {
    const uri = join(SKILLS, slugify(name, ''));
    this.removeNodes(this.subtree(uri).filter((u) => u !== uri));
    this.nodes.set(uri, { kind: 'file', content, title: name, description });
    return ok(undefined);
  }

  /**
   * A skill in the Agent Skills format: the directory `<name>` with `SKILL.md` (`text`) and `files`,
   * replacing whatever was there; a name the format refuses changes nothing.
   */
  addSkillFolder(
    name: string,
    description: string,
    text: string,
    files: ReadonlyMap<string, string>,
  ): Outcome {
    if (!SKILL_NAME.test(name)) return fail('INVALID_ARGUMENT');
    const uri = join(SKILLS, name);
    const planned = new Map<VikingUri, ModelNode>([
      [uri, { kind: 'dir', title: name, description }],
      [join(uri, 'SKILL.md'), { kind: 'file', content: text, title: null, description }],
    ]);
    for (const [path, content] of files) {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++)
        planned.set(join(uri, parts.slice(0, i).join('/')), { kind: 'dir', title: null });
      planned.set(join(uri, path), { kind: 'file', content, title: null });
    }
    this.removeNodes(this.subtree(uri).filter((u) => !planned.has(u)));
    for (const [u, node] of planned) this.nodes.set(u, node);
    return ok(undefined);
  }

  /** The skill `name`'s node: a file, or a directory with a `SKILL.md` file. */
  #skillAt(name: string): VikingUri | undefined {
    const uri = join(SKILLS, SKILL_NAME.test(name) ? name : slugify(name, ''));
    const node = this.nodes.get(uri);
    const main = this.nodes.get(join(uri, 'SKILL.md'));
    return !node || (node.kind === 'dir' && main?.kind !== 'file') ? undefined : uri;
  }

  /** Removes the skill `name` and what is below it. */
  removeSkill(name: string): Outcome<number> {
    const uri = this.#skillAt(name);
    if (!uri) return fail('NOT_FOUND');
    const count = this.removedCount(uri);
    this.removeNodes(this.subtree(uri));
    return ok(count);
  }

  /** listSkills(): each file right under the skills root, and each directory there with a `SKILL.md` file. */
  listSkills(): ModelSkill[] {
    return this.children(SKILLS)
      .filter((uri) => {
        const node = this.nodes.get(uri);
        return node?.kind === 'file' || this.nodes.get(join(uri, 'SKILL.md'))?.kind === 'file';
      })
      .map((uri) => this.#skill(uri));
  }

  #skill(uri: VikingUri): ModelSkill {
    const { title, description } = this.nodes.get(uri)!;
    return { uri, name: title === null ? undefined : (title ?? basename(uri)), description };
  }

  /**
   * getSkill(name): a file's name, description and content; a directory's SKILL.md parsed (the
   * model writes only front matter of its own shape, so anything else fails to parse) and its files.
   */
  getSkill(name: string): Outcome<ModelSkill & { body: string; files: string[] }> {
    const uri = this.#skillAt(name);
    if (!uri) return fail('NOT_FOUND');
    const node = this.nodes.get(uri)!;
    if (node.kind === 'file') return ok({ ...this.#skill(uri), body: node.content ?? '', files: [] });
    const main = this.nodes.get(join(uri, 'SKILL.md'))!.content ?? '';
    const parsed = /^---\nname: (".*")\ndescription: (.*)\n---\n/.exec(main);
    if (!parsed) return fail('INVALID_ARGUMENT');
    const files = this.subtree(uri)
      .filter((u) => this.nodes.get(u)!.kind === 'file' && u !== join(uri, 'SKILL.md'))
      .map((u) => u.slice(uri.length + 1))
      .sort();
    return ok({
      uri,
      name: JSON.parse(parsed[1]!) as string,
      description: parsed[2]!,
      body: main.slice(parsed[0].length),
      files: ['SKILL.md', ...files],
    });
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
    return this.listing()
      .map((n) => n.uri)
      .filter((u) => u !== uri && isWithin(u, uri))
      .sort();
  }
}
