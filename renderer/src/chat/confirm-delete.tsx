// Deleting a conversation or a folder from the sidebar: asked first, in words. The question closes as the deletion
// starts, since the row that asked goes away with it.

import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../ui/dialog.js';

/** `ask` opens the question `title`/`message`; `dialog` is rendered where the row keeps it (null while closed). */
export function useConfirmDelete(
  title: string,
  message: string,
  onDelete: () => void,
): { ask(): void; dialog: ReactNode } {
  const [asking, setAsking] = useState(false);
  return {
    ask: () => setAsking(true),
    dialog: asking ? (
      <ConfirmDialog
        title={title}
        message={message}
        confirmLabel="Delete"
        closeFirst
        onConfirm={onDelete}
        onClose={() => setAsking(false)}
      />
    ) : null,
  };
}
