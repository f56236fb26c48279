// A server's request to call a model during a tool call (MCP sampling), when its approval is "ask": the person
// sees which server asks, the model that would answer, the system prompt, the messages and the token limit, and
// approves or declines. One at a time, whichever screen is open; closing (Escape, ×) declines. A request withdrawn
// by main (its call ended) closes by itself.

import type { McpSamplingApproval } from '../../../shared/bridge/types.js';
import { useBridge } from '../bridge/bridge-context.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice } from '../ui/parts.js';
import { usePromptAnswer, usePromptQueue } from './prompt-queue.js';

/** Mount once, at the app's root: it shows the requests as they come. */
export function SamplingPrompts() {
  const { first, done } = usePromptQueue('mcp:sampling', 'mcp:sampling-ended');
  return first ? <SamplingDialog key={first.id} request={first} onDone={done} /> : null;
}

function SamplingDialog({ request, onDone }: { request: McpSamplingApproval; onDone(): void }) {
  const bridge = useBridge();
  const { answer, busy, error } = usePromptAnswer(
    (action: 'approve' | 'decline') => bridge.invoke('mcp:answer-sampling', { id: request.id, action }),
    onDone,
  );
  const decline = () => void answer('decline');

  return (
    <Dialog
      title={`${request.server} asks to use a model`}
      onClose={decline}
      wide
      description={
        <span>
          The MCP server “{request.server}” wants Switchyard to send this to <strong>{request.model}</strong>, for at
          most {request.maxTokens} tokens of answer, counted in your usage.
        </span>
      }
    >
      <div className="sampling-request">
        {request.systemPrompt ? (
          <section aria-label="System prompt">
            <h3>System prompt</h3>
            <pre className="sampling-text" tabIndex={0}>
              {request.systemPrompt}
            </pre>
          </section>
        ) : null}
        <section aria-label="Messages">
          <h3>Messages</h3>
          <ol className="sampling-messages">
            {request.messages.map((message, index) => (
              <li key={index}>
                <span className="sampling-role">{message.role === 'user' ? 'User' : 'Assistant'}</span>
                <pre className="sampling-text" tabIndex={0}>
                  {message.text}
                </pre>
              </li>
            ))}
          </ol>
        </section>
      </div>
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <button type="button" onClick={decline} disabled={busy}>
          Decline
        </button>
        <button type="button" className="primary" onClick={() => void answer('approve')} disabled={busy} data-autofocus>
          Approve
        </button>
      </div>
    </Dialog>
  );
}
