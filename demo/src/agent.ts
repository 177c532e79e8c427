// An agent's side of a conversation with Longship: each message goes into a session, and context()
// assembles the block the agent's next prompt would get (docs/guide/context.md); a commit archives
// the messages, and extracts memories from them where the visitor set an LLM endpoint
// (docs/guide/sessions.md); offline it extracts nothing.
import type { AssembledContext } from '../../src/assemble/context-options.js';
import type { NodeInfo } from '../../src/context/tree.js';
import type { CommitResult } from '../../src/session/session.js';
import type { Backend } from './backend.js';

/** The budgets the panel offers, in tokens (o200k_base, the block's framing included). */
export const budgets = [800, 2000, 4000] as const;

export interface Turn {
  message: string;
  budget: number;
  context: AssembledContext;
  /** Assembled again at another budget without the session: its deliveries neither left out nor recorded. */
  preview?: true;
}

export interface Committed {
  result: CommitResult;
  /** The archive's nodes (memory-type: its directory, then one file per message), as ls() lists them. */
  archived: NodeInfo[];
  /** The memories the LLM extracted (none offline), as stat() gives them. */
  extracted: NodeInfo[];
}

export interface Agent {
  readonly sessionId: string;
  /** Adds `message` to the session, then assembles its context under `budget` for the session. */
  send(message: string, budget: number): Promise<Turn>;
  /** The same message's block at another budget, as a fresh call would give it. */
  reassemble(message: string, budget: number): Promise<Turn>;
  /** Commits the session; then lists the archive it wrote and the memories extracted. */
  commit(): Promise<Committed>;
}

export async function startAgent(backend: Backend, sessionId: string): Promise<Agent> {
  const session = await backend.session(sessionId);
  return {
    sessionId,
    async send(message, budget) {
      await session.addMessage('user', message);
      // The id, not the session's proxy: context() takes either, and an id crosses to the worker.
      const context = await backend.context(message, { budget, session: sessionId });
      return { message, budget, context };
    },
    async reassemble(message, budget) {
      const context = await backend.context(message, { budget });
      return { message, budget, context, preview: true };
    },
    async commit() {
      const result = await session.commit();
      const archive = result.archive;
      const archived = archive ? [await backend.stat(archive), ...(await backend.ls(archive))] : [];
      const uris = result.extractions.flatMap((report) => report.memories);
      const extracted = await Promise.all(uris.map((uri) => backend.stat(uri)));
      return { result, archived, extracted };
    },
  };
}
