// "Import" in the conversation list: a conversation exported as JSON (export-menu.tsx) becomes a new conversation,
// opened at once. A file that is not one is refused with main's message, shown under the button.

import { useRef, useState } from 'react';
import { maxImportChars } from '../../../shared/bridge/limits.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { ImportIcon } from '../shell/icons.js';

/** UTF-8 takes at most 4 bytes a character: a file larger than this cannot be within the limit. */
const maxImportBytes = maxImportChars * 4;

export function ImportConversationButton({ onImported }: { onImported(conversationId: string): void }) {
  const bridge = useBridge();
  const input = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function importFile(file: File) {
    setProblem(null);
    if (file.size > maxImportBytes) {
      setProblem(`${file.name} is too large to be a conversation file.`);
      return;
    }
    setImporting(true);
    try {
      const { conversation } = await bridge.invoke('chat:import-conversation', { text: await file.text() });
      onImported(conversation.id);
    } catch (error) {
      setProblem(`Could not import ${file.name}: ${errorMessage(error)}`);
    } finally {
      setImporting(false);
    }
  }

  return (
    <div className="import-conversation">
      <button type="button" disabled={importing} onClick={() => input.current?.click()}>
        <ImportIcon />
        {importing ? 'Importing…' : 'Import'}
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        aria-label="Conversation file to import"
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = ''; // the same file chosen again imports again
          if (file) void importFile(file);
        }}
      />
      {problem ? (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
