// What a session holds: messages made of parts, as OpenViking's sessions do (text, the context the
// agent used, tool calls), and how a message reads as text once archived.
import { LongshipError } from '../errors.js';

export type MessageRole = 'user' | 'assistant' | 'system' | 'tool';

export type MessagePart =
  | { type: 'text'; text: string }
  /** Context the agent used for this message. */
  | { type: 'context'; uri: string; abstract?: string }
  | { type: 'tool'; name: string; input?: unknown; output?: string; status?: string };

export interface Message {
  role: MessageRole;
  parts: MessagePart[];
  /** Who spoke, when a conversation has more people than roles (a group chat, a transcript). */
  name?: string;
  /** Milliseconds since the epoch. */
  at: number;
}

export const messageRoles: readonly MessageRole[] = ['user', 'assistant', 'system', 'tool'];
const roles: readonly string[] = messageRoles;

/** Checks and copies a message's parts; a string is one text part. */
export function toParts(parts: string | readonly MessagePart[]): MessagePart[] {
  if (typeof parts === 'string') return [{ type: 'text', text: parts }];
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new LongshipError('INVALID_ARGUMENT', 'addMessage() takes a string or a non-empty array of parts');
  }
  return parts.map((part, i) => {
    const bad = (why: string) => new LongshipError('INVALID_ARGUMENT', `addMessage(): part ${i} ${why}`);
    if (typeof part !== 'object' || part === null) throw bad('is not an object');
    switch (part.type) {
      case 'text':
        if (typeof part.text !== 'string') throw bad('has no text');
        return { type: 'text', text: part.text };
      case 'context':
        if (typeof part.uri !== 'string') throw bad('has no uri');
        return {
          type: 'context',
          uri: part.uri,
          ...(part.abstract ? { abstract: String(part.abstract) } : {}),
        };
      case 'tool':
        if (typeof part.name !== 'string' || part.name === '') throw bad('has no name');
        // A structured clone keeps what the store can hold; a function or a class instance fails here, now.
        return structuredClone(part);
      default:
        throw bad(`has unknown type ${String((part as { type?: unknown }).type)}`);
    }
  });
}

export function checkRole(role: unknown): MessageRole {
  if (typeof role !== 'string' || !roles.includes(role)) {
    throw new LongshipError(
      'INVALID_ARGUMENT',
      `role must be one of ${roles.join(', ')}, not ${String(role)}`,
    );
  }
  return role as MessageRole;
}

/** The message as one text: what is archived, embedded and shown to the LLM. */
export function messageText(message: Pick<Message, 'parts' | 'name'>): string {
  const lines = message.parts.map((part) => {
    if (part.type === 'text') return part.text;
    if (part.type === 'context') return `[context ${part.uri}${part.abstract ? `: ${part.abstract}` : ''}]`;
    return `[tool ${part.name}${part.status ? ` (${part.status})` : ''}${part.output ? `: ${part.output}` : ''}]`;
  });
  const text = lines.join('\n').trim();
  return message.name ? `${message.name}: ${text}` : text;
}
