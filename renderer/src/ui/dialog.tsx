// A modal dialog on the native <dialog>: the browser keeps focus inside it, Escape closes it, and the page behind
// is inert. Mounted = open; closing gives focus back to what had it before.

import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../bridge/bridge-context.js';
import { ErrorNotice } from './parts.js';
import { IconButton } from './icon-button.js';

/** Where focus starts when no element is marked data-autofocus. */
const firstField =
  'input:not([type="hidden"]):not([disabled]):not([readonly]), select:not([disabled]), textarea:not([disabled])';

interface DialogProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** Wider for editors. */
  wide?: boolean;
  /** Shown under the title, and read out as the dialog's description. */
  description?: ReactNode;
}

export function Dialog({ title, onClose, children, wide, description }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useLayoutEffect(() => {
    const dialog = ref.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element, the Close button: start on the first field instead.
      (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(firstField))?.focus();
    }
    return () => {
      if (dialog?.open) dialog.close();
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        // Escape: let the owner unmount us, rather than the browser closing the element behind React's back.
        event.preventDefault();
        onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <IconButton label="Close" onClick={() => onClose()}>
          <span aria-hidden="true">×</span>
        </IconButton>
      </header>
      {description ? (
        <p id={descriptionId} className="dialog-description">
          {description}
        </p>
      ) : null}
      {children}
    </dialog>
  );
}

interface ConfirmDialogProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** A rejection is shown in place, and the person may try again or cancel. */
  onConfirm(): Promise<unknown> | void;
  onClose(): void;
  /** An error the owner reports itself. */
  error?: string | null;
  busy?: boolean;
  /** What is to be confirmed in detail, under the message (lists, code). */
  children?: ReactNode;
  /** `primary` for a confirmation that adds rather than destroys. Default `danger`. */
  tone?: 'danger' | 'primary';
  /** The dialog closes as the action starts, for an action that shows its own outcome elsewhere. */
  closeFirst?: boolean;
}

/** "Are you sure?": Cancel has the focus, so Enter alone never destroys anything. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onClose,
  error,
  busy,
  children,
  tone = 'danger',
  closeFirst = false,
}: ConfirmDialogProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    if (closeFirst) onClose();
    try {
      await onConfirm();
    } catch (caught) {
      setFailure(errorMessage(caught));
    }
  };
  return (
    <Dialog title={title} onClose={onClose} description={message} wide={children !== undefined}>
      {children}
      <ErrorNotice message={failure ?? error} />
      <div className="dialog-actions">
        <button type="button" data-autofocus onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className={tone === 'primary' ? 'primary' : 'danger-solid'}
          disabled={busy}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

interface FormActionsProps {
  submitLabel: string;
  onCancel(): void;
  /** Why the last submit failed. */
  error?: string | null;
  /** A submit is under way: the button is off until it ends. */
  busy?: boolean;
}

/** The end of a dialog's form: the error of the last submit, Cancel, and the submit button. */
export function FormActions({ submitLabel, onCancel, error, busy }: FormActionsProps) {
  return (
    <>
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}

/** The one button of a dialog that only shows something; focus starts on it. */
export function CloseAction({ label, onClose }: { label: string; onClose(): void }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="primary" data-autofocus onClick={onClose}>
        {label}
      </button>
    </div>
  );
}
