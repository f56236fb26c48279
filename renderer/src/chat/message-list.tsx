// The transcript: the user's messages, the model's replies (reasoning, markdown, tool calls with their results
// and approval cards) and a usage line under each reply, with each message's actions (message-actions.tsx; a
// message of the user's is edited in place). Follows the bottom while it is in view — also when
// something already shown grows (an image that finished loading, a tool call opened) — and leaves the scroll
// alone when the user has scrolled up to read: a streaming reply never takes earlier text away from under the
// reader. Sending (or opening another conversation) goes to the newest message; away from the bottom, a "Jump to
// latest" button goes back there.

import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ApprovalDecision, ChatMessage, ModelOption, PendingApproval } from '../../../shared/bridge/types.js';
import { ApprovalCard } from './approval-card.js';
import { SentDocument, SentTextFile } from './attachment-chips.js';
import { formatUsage, messageText, prettyArguments } from './format.js';
import { Markdown } from './markdown.js';
import { EditMessageForm, ReplyActions, UserActions, type MessageVersions } from './message-actions.js';
import {
  noCreditsError,
  resourceOfPart,
  textFileOfPart,
  textFileText,
  resultsOf,
  type AttachedResource,
} from '../../../shared/bridge/chat-message.js';
import { mediaOfPart } from '../../../shared/bridge/tool-media.js';
import { ToolMediaList } from '../ui/tool-media.js';
import { ChevronIcon, PaperclipIcon, ToolIcon } from '../shell/icons.js';
import { useChanged } from '../ui/use-changed.js';
import { useGoToScreen } from '../shell/navigation.js';
import { composerTextareaId } from './composer.js';

/** What the transcript's message actions do. */
export interface MessageActionHandlers {
  onRegenerate(messageId: string, model?: string): void;
  /** Resolves true when the edited message was taken. */
  onEdit(message: ChatMessage, text: string): Promise<boolean>;
  onDelete(messageId: string): void;
  /** Shows another version of a message (and what followed it). */
  onShowVersion?(messageId: string): void;
}

interface MessageListProps {
  messages: ChatMessage[];
  approvals: PendingApproval[];
  running: boolean;
  /** The models a reply can be regenerated with. */
  models: ModelOption[] | null;
  actions: MessageActionHandlers;
  onDecide(approval: PendingApproval, decision: ApprovalDecision): void;
  /** For each message that has other versions: the ids of all of them, oldest first. */
  versions?: Record<string, string[]>;
}

/** Within this distance of the end, the transcript counts as at the bottom (sub-pixel rounding, a last line). */
const bottomSlackPx = 24;

function distanceFromBottom(element: HTMLElement): number {
  return element.scrollHeight - element.scrollTop - element.clientHeight;
}

export function MessageList({ messages, approvals, running, models, actions, onDecide, versions }: MessageListProps) {
  const container = useRef<HTMLDivElement>(null);
  const stack = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const lastScrollTop = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  const newest = messages.at(-1);
  const shownNewest = useRef<{ conversationId?: string; id?: string }>({});

  const toBottom = () => {
    const element = container.current;
    if (!element) return;
    following.current = true;
    element.scrollTop = element.scrollHeight;
    lastScrollTop.current = element.scrollTop;
    setAtBottom(true);
  };

  useLayoutEffect(() => {
    // A message of the user's that just came last was sent (or edited): show it and what answers it. So does
    // another conversation.
    const previous = shownNewest.current;
    shownNewest.current = { conversationId: newest?.conversationId, id: newest?.id };
    const sent = newest?.role === 'user' && newest.id !== previous.id;
    if (sent || newest?.conversationId !== previous.conversationId) following.current = true;
    if (following.current) toBottom();
  });

  useEffect(() => {
    const element = container.current;
    if (!element || !stack.current) return;
    const observer = new ResizeObserver(() => {
      if (following.current) element.scrollTop = element.scrollHeight;
      else setAtBottom(distanceFromBottom(element) < bottomSlackPx);
    });
    observer.observe(stack.current);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const lastAssistant = messages.findLast((message) => message.role === 'assistant');
  const versionsOf = (message: ChatMessage): MessageVersions | undefined => {
    const ids = versions?.[message.id];
    const onShow = actions.onShowVersion;
    return ids && onShow ? { ids, current: message.id, onShow } : undefined;
  };
  /** Regenerate and edit write a new version: also while the turn only waits for a tool call's approval. */
  const branchable = !running || approvals.length > 0;
  /** Whether a message that is not a tool result comes after `at` (deleting the message deletes it too). */
  const followed = (at: number) => messages.slice(at + 1).some((message) => message.role !== 'tool');

  return (
    <div className="message-list-frame">
      <div
        ref={container}
        className="message-list"
        role="log"
        aria-label="Messages"
        onScroll={(event) => {
          // Only the user scrolls up: content growing (an image loading) scrolls down or not at all, and must not
          // stop the following.
          const element = event.currentTarget;
          const bottom = distanceFromBottom(element) < bottomSlackPx;
          if (bottom) following.current = true;
          else if (element.scrollTop < lastScrollTop.current) following.current = false;
          lastScrollTop.current = element.scrollTop;
          setAtBottom(bottom);
        }}
      >
        {messages.length === 0 ? (
          <p className="empty-transcript">Ask anything. Tools of your MCP servers are offered to the model.</p>
        ) : null}
        <div ref={stack} className="message-stack">
          {messages.map((message, at) => {
            const shown: MessageProps = {
              message,
              busy: running,
              branchable,
              actions,
              versions: versionsOf(message),
              followed: followed(at),
            };
            return message.role === 'user' ? (
              <UserMessage key={message.id} {...shown} />
            ) : message.role === 'assistant' ? (
              <AssistantMessage
                key={message.id}
                {...shown}
                results={resultsOf(message.toolCalls ?? [], messages, at)}
                approvals={approvals}
                turnRunning={running && message === lastAssistant}
                models={models}
                onDecide={onDecide}
              />
            ) : null;
          })}
        </div>
      </div>
      {atBottom || messages.length === 0 ? null : (
        <button
          type="button"
          className="jump-to-latest"
          onClick={() => {
            toBottom();
            // The button goes away with the scroll: the keyboard goes on where the newest message is answered.
            document.getElementById(composerTextareaId)?.focus();
          }}
        >
          <span aria-hidden="true">↓</span> Jump to latest
        </button>
      )}
    </div>
  );
}

/** What every message of the transcript is shown with: itself, and what its actions need. */
interface MessageProps {
  message: ChatMessage;
  busy: boolean;
  branchable: boolean;
  actions: MessageActionHandlers;
  versions?: MessageVersions;
  followed?: boolean;
}

function UserMessage({ message, busy, branchable, actions, versions, followed }: MessageProps) {
  const [editing, setEditing] = useState(false);
  const parts =
    typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : (message.content ?? []);
  const text = messageText(message.content);
  if (editing) {
    return (
      <article className="message message-user editing" aria-label="Your message">
        <EditMessageForm
          initialText={text}
          busy={!branchable}
          onSend={(edited) => actions.onEdit(message, edited)}
          onCancel={() => setEditing(false)}
        />
      </article>
    );
  }
  return (
    <article className="message message-user" aria-label="Your message">
      <div className="user-bubble">
        {parts.map((part, index) =>
          textFileOfPart(part) ? (
            <SentTextFile key={index} file={textFileOfPart(part)!} text={textFileText(part)} />
          ) : resourceOfPart(part) ? (
            <AttachedResourceView
              key={index}
              resource={resourceOfPart(part)!}
              text={part.type === 'text' ? part.text : ''}
            />
          ) : part.type === 'text' ? (
            <p key={index} className="user-text">
              {part.text}
            </p>
          ) : part.type === 'image_url' ? (
            <img key={index} className="user-image" src={part.image_url.url} alt="Attached image" />
          ) : part.type === 'file' ? (
            <SentDocument key={index} name={part.file.filename ?? 'file'} />
          ) : part.type === 'input_audio' ? (
            <p key={index} className="user-text">
              Attached audio ({part.input_audio.format})
            </p>
          ) : null,
        )}
      </div>
      <UserActions
        text={text}
        busy={busy}
        branchable={branchable}
        versions={versions}
        followed={followed}
        onEdit={() => setEditing(true)}
        onDelete={() => actions.onDelete(message.id)}
      />
    </article>
  );
}

/** An MCP resource sent with the message: folded, its text (as the model got it) shown when opened. */
function AttachedResourceView({ resource, text }: { resource: AttachedResource; text: string }) {
  return (
    <details className="attached-resource">
      <summary>
        <PaperclipIcon />
        <span className="mono">{resource.uri}</span>
        <span className="muted">{resource.server}</span>
      </summary>
      <pre aria-label={`Text of ${resource.uri}`}>{text}</pre>
    </details>
  );
}

interface AssistantMessageProps extends MessageProps {
  /** The result of each tool call, by position: a provider's call id may repeat. */
  results: (ChatMessage | undefined)[];
  approvals: PendingApproval[];
  turnRunning: boolean;
  models: ModelOption[] | null;
  onDecide(approval: PendingApproval, decision: ApprovalDecision): void;
}

function AssistantMessage(props: AssistantMessageProps) {
  const { message, results, approvals, turnRunning, busy, models, actions, onDecide } = props;
  const text = typeof message.content === 'string' ? message.content : '';
  const streaming = message.status === 'streaming';
  return (
    <article className="message message-assistant" aria-label="Assistant message" aria-busy={streaming}>
      {message.reasoning ? (
        <details className="reasoning" open={streaming && text === ''}>
          <summary>Reasoning</summary>
          <div className="reasoning-text">{message.reasoning}</div>
        </details>
      ) : null}
      {text !== '' ? <Markdown text={text} /> : streaming && !message.reasoning ? <TypingDots /> : null}
      {(message.toolCalls ?? []).map((call, index) => {
        const result = results[index];
        const approval = approvals.find(
          (candidate) => candidate.messageId === message.id && candidate.toolCallId === call.id,
        );
        const state = result ? result.status : approval ? 'awaiting approval' : turnRunning ? 'running' : 'no result';
        const label = call.mcp ? `${call.mcp.server} / ${call.mcp.tool}` : call.function.name;
        return (
          <section
            key={index}
            className={`tool-call tool-${state.replace(' ', '-')}`}
            aria-label={`Tool call ${label}`}
          >
            <ToolCallDetails
              openByDefault={!result || result.status === 'error'}
              summary={
                <>
                  <ToolIcon />
                  <span className="tool-name">{label}</span>
                  <span className="tool-state">{state === 'complete' ? 'done' : state}</span>
                </>
              }
            >
              <pre className="tool-arguments" aria-label="Arguments">
                {prettyArguments(call.function.arguments)}
              </pre>
              {result ? <ToolResultView result={result} source={label} /> : null}
            </ToolCallDetails>
            {approval ? <ApprovalCard approval={approval} onDecide={onDecide} /> : null}
          </section>
        );
      })}
      {message.status === 'error' ? (
        // Its own block with its own colours: the meta line's small muted type is too faint for a failure.
        <p className="reply-error" role="alert">
          {message.error ?? 'The reply failed: try again (Regenerate).'}
          {message.error === noCreditsError ? <AddCreditsButton /> : null}
        </p>
      ) : null}
      <footer className="message-meta">
        {message.status === 'stopped' ? <span className="status-stopped">Stopped</span> : null}
        <span className="usage" role="note" aria-label="Usage">
          {formatUsage(message.usage, message.cost)}
        </span>
        {message.model ? <span className="meta-model">{message.model}</span> : null}
        {streaming ? null : (
          <ReplyActions
            text={text}
            models={models}
            busy={busy}
            branchable={props.branchable}
            versions={props.versions}
            followed={props.followed}
            onRegenerate={(model) => actions.onRegenerate(message.id, model)}
            onDelete={() => actions.onDelete(message.id)}
          />
        )}
      </footer>
    </article>
  );
}

/**
 * A tool call's card, folded or open: a chevron shows that it opens, and its toggle says whether it is open. It is
 * open while the call runs and after a failure, and folds when a result comes; the user's own toggling is kept.
 */
function ToolCallDetails({
  openByDefault,
  summary,
  children,
}: {
  openByDefault: boolean;
  summary: ReactNode;
  children: ReactNode;
}) {
  // The element keeps its own open state (React sets it only when the default changes); this mirrors it for the
  // toggle's aria-expanded.
  const [expanded, setExpanded] = useState(openByDefault);
  if (useChanged(openByDefault)) setExpanded(openByDefault);
  return (
    <details open={openByDefault} onToggle={(event) => setExpanded(event.currentTarget.open)}>
      <summary aria-expanded={expanded}>
        <span className="tool-chevron">
          <ChevronIcon />
        </span>
        {summary}
      </summary>
      {children}
    </details>
  );
}

/** A tool's result: its text as the model got it, then its images and audio as media. */
function ToolResultView({ result, source }: { result: ChatMessage; source: string }) {
  const parts = typeof result.content === 'string' ? [] : (result.content ?? []);
  return (
    <>
      <pre className="tool-result" aria-label="Result">
        {messageText(result.content)}
      </pre>
      <ToolMediaList media={parts.flatMap((part) => mediaOfPart(part) ?? [])} source={source} />
    </>
  );
}

/** The app's way to the credits, beside a reply refused for lack of them. */
function AddCreditsButton() {
  const goTo = useGoToScreen();
  return (
    <button type="button" className="error-action" onClick={() => goTo('activity')}>
      Add credits
    </button>
  );
}

function TypingDots() {
  return (
    <div className="typing" aria-label="The model is answering">
      <span />
      <span />
      <span />
    </div>
  );
}
