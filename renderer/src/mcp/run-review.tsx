// "This will run on your machine": what MCP servers added from the form or an import will run, shown before they
// are written to the settings (where Switchyard starts them at once). The exact command line, the names of the
// environment variables or headers (never their values), and the warnings of reviewServerEntry.

import type { ReactNode } from 'react';
import type { EntryReview } from '../../../shared/mcp/review-entry.js';
import { ConfirmDialog } from '../ui/dialog.js';

export function ReviewList({ reviews }: { reviews: EntryReview[] }) {
  return (
    <ul className="run-review" aria-label="What will run">
      {reviews.map((review) => (
        <li key={review.name}>
          <strong>{review.name}</strong>
          <pre tabIndex={0}>
            <code>{review.runs}</code>
          </pre>
          {review.envNames.length > 0 ? <p className="muted">With {review.envNames.join(', ')} set.</p> : null}
          {review.warnings.map((warning) => (
            <p key={warning} className="notice">
              {warning}
            </p>
          ))}
        </li>
      ))}
    </ul>
  );
}

interface ConfirmRunDialogProps {
  title: string;
  reviews: EntryReview[];
  confirmLabel: string;
  /** A rejection is shown in place, and the person may try again or cancel. */
  onConfirm(): Promise<unknown>;
  onClose(): void;
  /** Choices shown under the list (the import's "move secrets" checkbox). */
  children?: ReactNode;
}

/** Asks before servers that run programs as the person are saved; Cancel has the focus, so Enter starts nothing. */
export function ConfirmRunDialog({
  title,
  reviews,
  confirmLabel,
  onConfirm,
  onClose,
  children,
}: ConfirmRunDialogProps) {
  return (
    <ConfirmDialog
      title={title}
      message="These run on this computer, as you, with access to what you can access. Start them only if you trust them."
      confirmLabel={confirmLabel}
      onConfirm={onConfirm}
      onClose={onClose}
      tone="primary"
    >
      <ReviewList reviews={reviews} />
      {children}
    </ConfirmDialog>
  );
}
