// A conversation is a tree of messages: each message has a parent (the first has none), and the children of one
// parent are versions of the same place in the conversation — a regenerated reply, an edited message. What the
// user sees and what the model is sent is one path from the root to a leaf: at every branch the child chosen last
// (`chosenOrder`, raised each time a version is created or switched to), so that each branch remembers its own
// choice and a reload shows the same path. Pure functions over the stored messages, oldest first.

import type { ChatMessage } from '../../shared/bridge/types.js';

type TreeMessage = Pick<ChatMessage, 'id' | 'parentId' | 'chosenOrder'>;

/** Each parent's children in the order they were written; roots (no parent, or a parent gone) under null. */
export function childrenByParent<Message extends TreeMessage>(messages: readonly Message[]) {
  const ids = new Set(messages.map((message) => message.id));
  const children = new Map<string | null, Message[]>();
  for (const message of messages) {
    const parent = message.parentId !== null && ids.has(message.parentId) ? message.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), message]);
  }
  return children;
}

/** The shown path: from the root, at each branch the child chosen last (the newest on a tie). */
export function shownPath<Message extends TreeMessage>(messages: readonly Message[]): Message[] {
  const children = childrenByParent(messages);
  const path: Message[] = [];
  for (let next = chosenChild(children.get(null)); next; next = chosenChild(children.get(next.id))) path.push(next);
  return path;
}

/** The messages from the root down to `leafId`, that one included; empty when there is no such message. */
export function pathTo<Message extends TreeMessage>(messages: readonly Message[], leafId: string | null): Message[] {
  const byId = new Map(messages.map((message) => [message.id, message]));
  const path: Message[] = [];
  const seen = new Set<string>();
  for (let at = leafId === null ? undefined : byId.get(leafId); at && !seen.has(at.id);) {
    seen.add(at.id); // a damaged store with a cycle ends the walk instead of looping
    path.unshift(at);
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return path;
}

/** The ids of `id` and every message below it, `id` first. */
export function subtreeIds(messages: readonly TreeMessage[], id: string): string[] {
  const children = childrenByParent(messages);
  const ids: string[] = [];
  const pending = [id];
  while (pending.length > 0) {
    const next = pending.shift()!;
    if (ids.includes(next)) continue;
    ids.push(next);
    pending.push(...(children.get(next) ?? []).map((child) => child.id));
  }
  return ids;
}

/** For each message of `path` that has other versions: the ids of all its versions, oldest first. */
export function versionsOnPath(messages: readonly TreeMessage[], path: readonly TreeMessage[]) {
  const children = childrenByParent(messages);
  const ids = new Set(messages.map((message) => message.id));
  const versions: Record<string, string[]> = {};
  for (const message of path) {
    const parent = message.parentId !== null && ids.has(message.parentId) ? message.parentId : null;
    const siblings = children.get(parent) ?? [];
    if (siblings.length > 1) versions[message.id] = siblings.map((sibling) => sibling.id);
  }
  return versions;
}

/** The `chosenOrder` that makes a message the choice at its branch: above every other in the conversation. */
export function nextChosenOrder(messages: readonly TreeMessage[]): number {
  return messages.reduce((highest, message) => Math.max(highest, message.chosenOrder), 0) + 1;
}

function chosenChild<Message extends TreeMessage>(children: readonly Message[] | undefined): Message | undefined {
  return children?.reduce((chosen, child) => (child.chosenOrder >= chosen.chosenOrder ? child : chosen));
}
