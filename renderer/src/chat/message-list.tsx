// The transcript: the user's messages, the model's replies (reasoning, markdown, tool calls with their results
// and approval cards) and a usage line under each reply. Follows the bottom while it is in view — also when
// something already shown grows (an image that finished loading, a tool call opened) — and leaves the scroll
// alone when the user has scrolled up to read.

import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { ApprovalDecision, ChatMessage, PendingApproval } from '../../../shared/bridge/types.js';
import { ApprovalCard } from './approval-card.js';
import { formatUsage, prettyArguments } from './format.js';
import { Markdown } from './markdown.js';
import { ToolIcon } from '../shell/icons.js';

interface MessageListProps {
  messages: ChatMessage[];
  approvals: PendingApproval[];
  running: boolean;
  onDecide(approval: PendingApproval, decision: ApprovalDecision): void;
}

const followDistancePx = 120;

export function MessageList({ messages, approvals, running, onDecide }: MessageListProps) {
  const container = useRef<HTMLDivElement>(null);
  const stack = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const lastScrollTop = useRef(0);

  useLayoutEffect(() => {
    const element = container.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  });

  useEffect(() => {
    const element = container.current;
    if (!element || !stack.current) return;
    const observer = new ResizeObserver(() => {
      if (following.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(stack.current);
    return () => observer.disconnect();
  }, []);

  const results = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m]));
  const lastAssistant = messages.findLast((message) => message.role === 'assistant');

  return (
    <div
      ref={container}
      className="message-list"
      role="log"
      aria-label="Messages"
      onScroll={(event) => {
        // Only the user scrolls up: content growing (an image loading) scrolls down or not at all, and must not
        // stop the following.
        const element = event.currentTarget;
        if (element.scrollHeight - element.scrollTop - element.clientHeight < followDistancePx)
          following.current = true;
        else if (element.scrollTop < lastScrollTop.current) following.current = false;
        lastScrollTop.current = element.scrollTop;
      }}
    >
      {messages.length === 0 ? (
        <p className="empty-transcript">Ask anything. Tools of your MCP servers are offered to the model.</p>
      ) : null}
      <div ref={stack} className="message-stack">
        {messages.map((message) =>
          message.role === 'user' ? (
            <UserMessage key={message.id} message={message} />
          ) : message.role === 'assistant' ? (
            <AssistantMessage
              key={message.id}
              message={message}
              results={results}
              approvals={approvals}
              turnRunning={running && message === lastAssistant}
              onDecide={onDecide}
            />
          ) : null,
        )}
      </div>
    </div>
  );
}

const UserMessage = memo(function UserMessage({ message }: { message: ChatMessage }) {
  const parts =
    typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : (message.content ?? []);
  return (
    <article className="message message-user" aria-label="Your message">
      {parts.map((part, index) =>
        part.type === 'text' ? (
          <p key={index} className="user-text">
            {part.text}
          </p>
        ) : part.type === 'image_url' ? (
          <img key={index} className="user-image" src={part.image_url.url} alt="Attached image" />
        ) : part.type === 'file' ? (
          <p key={index} className="user-text">
            Attached file: {part.file.filename ?? 'file'}
          </p>
        ) : part.type === 'input_audio' ? (
          <p key={index} className="user-text">
            Attached audio ({part.input_audio.format})
          </p>
        ) : null,
      )}
    </article>
  );
});

interface AssistantMessageProps {
  message: ChatMessage;
  results: Map<string | null, ChatMessage>;
  approvals: PendingApproval[];
  turnRunning: boolean;
  onDecide(approval: PendingApproval, decision: ApprovalDecision): void;
}

function AssistantMessage({ message, results, approvals, turnRunning, onDecide }: AssistantMessageProps) {
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
      {(message.toolCalls ?? []).map((call) => {
        const result = results.get(call.id);
        const approval = approvals.find((candidate) => candidate.toolCallId === call.id);
        const state = result ? result.status : approval ? 'awaiting approval' : turnRunning ? 'running' : 'no result';
        const label = call.mcp ? `${call.mcp.server} / ${call.mcp.tool}` : call.function.name;
        return (
          <section
            key={call.id}
            className={`tool-call tool-${state.replace(' ', '-')}`}
            aria-label={`Tool call ${label}`}
          >
            <details open={!result || result.status === 'error'}>
              <summary>
                <ToolIcon />
                <span className="tool-name">{label}</span>
                <span className="tool-state">{state === 'complete' ? 'done' : state}</span>
              </summary>
              <pre className="tool-arguments" aria-label="Arguments">
                {prettyArguments(call.function.arguments)}
              </pre>
              {result ? (
                <pre className="tool-result" aria-label="Result">
                  {typeof result.content === 'string' ? result.content : ''}
                </pre>
              ) : null}
            </details>
            {approval ? <ApprovalCard approval={approval} onDecide={onDecide} /> : null}
          </section>
        );
      })}
      <footer className="message-meta">
        {message.status === 'stopped' ? <span className="status-stopped">Stopped</span> : null}
        {message.status === 'error' ? (
          <span className="status-error" role="alert">
            {message.error ?? 'The reply failed.'}
          </span>
        ) : null}
        <span className="usage" role="note" aria-label="Usage">
          {formatUsage(message.usage, message.cost)}
        </span>
        {message.model ? <span className="meta-model">{message.model}</span> : null}
      </footer>
    </article>
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
