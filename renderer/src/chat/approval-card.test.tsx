// The approval card shows what the tool's server says it does, as the server's claim.

import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PendingApproval } from '../../../shared/bridge/types.js';
import { ApprovalCard } from './approval-card.js';

afterEach(cleanup);

const approval: PendingApproval = {
  conversationId: 'c',
  messageId: 'm',
  toolCallId: 't',
  functionName: 'fs__delete',
  server: 'fs',
  tool: 'delete',
  arguments: '{}',
};

describe('ApprovalCard', () => {
  it('shows a destructive tool as the server describes it', () => {
    render(
      <ApprovalCard approval={{ ...approval, hints: { destructive: true, openWorld: true } }} onDecide={vi.fn()} />,
    );
    const hints = screen.getByLabelText('What the server says this tool does');
    expect(hints.textContent).toBe('Its server says: may delete or overwritereaches the internet or other systems');
  });

  it('shows a read-only tool as read-only, and nothing for a tool without annotations', () => {
    render(
      <ApprovalCard approval={{ ...approval, hints: { readOnly: true, destructive: true } }} onDecide={vi.fn()} />,
    );
    expect(screen.getByLabelText('What the server says this tool does').textContent).toBe('Its server says: read-only');
    cleanup();
    render(<ApprovalCard approval={{ ...approval, hints: {} }} onDecide={vi.fn()} />);
    expect(screen.queryByLabelText('What the server says this tool does')).toBeNull();
  });
});
