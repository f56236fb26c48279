// Prefix stickiness for model groups: requests of one conversation go to the target that answered its previous
// turn, because prompt caches live per deployment. A conversation is known by a hash of the alias, its system
// messages and its first user message: those stay the same on every turn, where "everything but the last message"
// changes with each answer (decision 029). Per process and bounded: the least recently used conversations go first.

import { createHash } from 'node:crypto';

const defaultCapacity = 10_000;

interface Message {
  role?: unknown;
  content?: unknown;
}

/** The conversation `request` belongs to within the group `alias`, or undefined when it carries no messages. */
export function conversationKey(alias: string, request: object): string | undefined {
  const messages = (request as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return undefined;
  const system = (messages as Message[]).filter((message) => message.role === 'system' || message.role === 'developer');
  const firstUser = (messages as Message[]).find((message) => message.role === 'user');
  if (!firstUser) return undefined;
  return createHash('sha256')
    .update(JSON.stringify([alias, system.map((message) => message.content), firstUser.content]))
    .digest('base64url');
}

export class StickyTargets {
  private readonly targets = new Map<string, string>();
  private readonly capacity: number;

  constructor(capacity = defaultCapacity) {
    this.capacity = capacity;
  }

  /** The target that last answered the conversation, or undefined. */
  targetOf(key: string): string | undefined {
    const target = this.targets.get(key);
    if (target !== undefined) {
      // A Map keeps insertion order: re-inserting makes the entry the most recently used.
      this.targets.delete(key);
      this.targets.set(key, target);
    }
    return target;
  }

  remember(key: string, target: string): void {
    this.targets.delete(key);
    this.targets.set(key, target);
    if (this.targets.size > this.capacity) this.targets.delete(this.targets.keys().next().value!);
  }

  get size(): number {
    return this.targets.size;
  }
}
