/**
 * Namespaces: whose memories, sessions and private resources a URI names (docs/guide/namespaces.md).
 * As in OpenViking, each user has a space `viking://user/{user}/…` (memories, sessions, resources,
 * skills, peers) and `viking://~` is the current user's; each agent keeps its own notes under
 * `viking://agent/{agent}/memories`; `viking://resources` and `viking://agent/skills` are shared.
 *
 * What a URI is follows from its shape alone, so stores, indexes and verify() need no identity; only
 * the `~` alias and the default search roots depend on who is asking.
 */
import { LongshipError } from '../errors.js';
import type { ContextType } from '../store/store.js';
import {
  contextTypeOf,
  isContainer,
  join,
  parseUri,
  reservedNames,
  segments,
  type VikingUri,
} from './uri.js';

/** Who is asking: the user whose space `viking://~` is, and the agent whose notes are its own. */
export interface Namespace {
  readonly user: string;
  readonly agent: string;
}

/** The namespace of an engine opened without `user` or `agent`: OpenViking's default ids too. */
export const defaultNamespace: Namespace = Object.freeze({ user: 'default', agent: 'default' });

/**
 * The namespace, checked: each id one URI segment as written, not a reserved name.
 *
 * @example
 * checkNamespace({ user: 'alice', agent: 'coder' }, 'openLongship()');
 */
export function checkNamespace(
  namespace: { user?: string | undefined; agent?: string | undefined },
  caller: string,
): Namespace {
  const checked = {
    user: namespace.user === undefined ? defaultNamespace.user : namespace.user,
    agent: namespace.agent === undefined ? defaultNamespace.agent : namespace.agent,
  };
  for (const key of ['user', 'agent'] as const) {
    const id: unknown = checked[key];
    if (typeof id !== 'string' || id === '~' || reservedNames.has(id) || !isOneSegment(id)) {
      throw new LongshipError(
        'INVALID_ARGUMENT',
        `${caller}: ${key} must be one URI segment as written (e.g. 'alice'), not ${JSON.stringify(id)}` +
          (reservedNames.has(String(id)) ? ` (reserved: ${[...reservedNames].join(', ')})` : ''),
      );
    }
  }
  return Object.freeze({ user: checked.user, agent: checked.agent });
}

function isOneSegment(id: string): boolean {
  try {
    return id !== '' && !/[/%]/.test(id) && segments(parseUri(`viking://user/${id}`))[1] === id;
  } catch {
    return false;
  }
}

/** The type a node at `uri` is stored with: its content's, `'memory'` for a container, else none. */
export function storedTypeOf(uri: VikingUri): ContextType | undefined {
  return contextTypeOf(uri) ?? (isContainer(uri) ? 'memory' : undefined);
}

/**
 * The roots each context type is searched from by default, for one namespace: the shared ones and
 * the namespace's own. The first of each is where ingestion writes by default.
 *
 * @example
 * namespaceRoots({ user: 'alice', agent: 'coder' }).memory;
 * // ['viking://user/alice/memories', 'viking://agent/coder/memories', 'viking://user/alice/sessions']
 */
export function namespaceRoots(namespace: Namespace): Readonly<Record<ContextType, readonly VikingUri[]>> {
  const user = join(parseUri('viking://user'), namespace.user);
  const agent = join(parseUri('viking://agent'), namespace.agent);
  return {
    resource: [parseUri('viking://resources'), join(user, 'resources')],
    memory: [join(user, 'memories'), join(agent, 'memories'), join(user, 'sessions')],
    skill: [parseUri('viking://agent/skills'), join(user, 'skills'), join(agent, 'skills')],
  };
}

/**
 * The default namespace's roots of each context type (docs/guide/namespaces.md); the first of each
 * is shared by every namespace and is where ingestion writes by default.
 *
 * @example
 * for (const root of roots.memory) await walk(root);
 */
export const roots = namespaceRoots(defaultNamespace);

/** A user's space, `viking://user/{user}`. */
export function userSpace(namespace: Namespace): VikingUri {
  return join(parseUri('viking://user'), namespace.user);
}

/** An agent's space, `viking://agent/{agent}`. */
export function agentSpace(namespace: Namespace): VikingUri {
  return join(parseUri('viking://agent'), namespace.agent);
}

/**
 * `input` with the home alias expanded (`viking://~/memories` → `viking://user/{user}/memories`), as
 * OpenViking does at its request boundary: `~` is an alias only as the first segment. An id-less old
 * form (`viking://user/memories/…`) is INVALID_URI naming its replacement. Other input is returned
 * as given, for the operation to parse.
 *
 * @example
 * expandHome('viking://~/memories/events', { user: 'alice', agent: 'default' });
 * // 'viking://user/alice/memories/events'
 */
export function expandHome(input: string, namespace: Namespace): string {
  if (typeof input !== 'string') return input;
  const home = /^viking:\/\/~(?=\/|$)/i.exec(input);
  if (home) return `viking://user/${encodeURIComponent(namespace.user)}${input.slice(home[0].length)}`;
  const old = /^viking:\/\/(user|agent)\/+(memories|resources|skills|peers|privacy|sessions)(?=\/|$)/i.exec(
    input,
  );
  if (old && !(old[1] === 'agent' && old[2] === 'skills')) {
    const rest = input.slice(old[0].length);
    const replacement =
      old[1] === 'user'
        ? `viking://~/${old[2]}${rest}`
        : `viking://agent/${namespace.agent}/${old[2]}${rest}`;
    throw new LongshipError(
      'INVALID_URI',
      `${input.slice(0, 200)}: spaces have ids now; '${old[2]}' is not a ${old[1]} id. Use ${replacement} ` +
        `(or viking://${old[1]}/{id}/${old[2]}${rest} for another ${old[1]})`,
    );
  }
  return input;
}
