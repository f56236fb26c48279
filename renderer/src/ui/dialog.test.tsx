// The ends of the dialogs: a form's Cancel and submit with the last error, and the lone button of a dialog that
// only shows something.

import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { CloseAction, ConfirmDialog, FormActions } from './dialog.js';

afterEach(cleanup);

it('shows the error of the last submit, cancels, and keeps the submit button off while busy', () => {
  const onCancel = vi.fn();
  const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
  const { rerender } = render(
    <form onSubmit={onSubmit}>
      <FormActions submitLabel="Create key" onCancel={onCancel} error="The name is taken." busy />
    </form>,
  );
  expect(screen.getByRole('alert').textContent).toBe('The name is taken.');
  const submit = screen.getByRole('button', { name: 'Create key' });
  expect(submit.getAttribute('type')).toBe('submit');
  expect((submit as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onCancel).toHaveBeenCalledTimes(1);
  expect(onSubmit).not.toHaveBeenCalled();

  rerender(
    <form onSubmit={onSubmit}>
      <FormActions submitLabel="Create key" onCancel={onCancel} />
    </form>,
  );
  expect(screen.queryByRole('alert')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
  expect(onSubmit).toHaveBeenCalledTimes(1);
});

it('gives the lone button of a showing dialog the start focus and the close', () => {
  const onClose = vi.fn();
  render(<CloseAction label="Done" onClose={onClose} />);
  const button = screen.getByRole('button', { name: 'Done' });
  expect(button.hasAttribute('data-autofocus')).toBe(true);
  fireEvent.click(button);
  expect(onClose).toHaveBeenCalledTimes(1);
});

it('asks before it destroys: Cancel has the focus, and a failed confirm is shown in place to try again', async () => {
  const onClose = vi.fn();
  const onConfirm = vi.fn().mockRejectedValueOnce(new Error('the key is in use')).mockResolvedValueOnce(undefined);
  render(
    <ConfirmDialog
      title="Delete key ci?"
      message="It stops working."
      confirmLabel="Delete key"
      onConfirm={onConfirm}
      onClose={onClose}
    />,
  );
  expect(screen.getByRole('button', { name: 'Cancel' }).hasAttribute('data-autofocus')).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: 'Delete key' }));
  expect((await screen.findByRole('alert')).textContent).toBe('the key is in use');
  fireEvent.click(screen.getByRole('button', { name: 'Delete key' }));
  expect(onConfirm).toHaveBeenCalledTimes(2);
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onClose).toHaveBeenCalledTimes(1);
});

it('shows an error its owner reports', () => {
  render(
    <ConfirmDialog
      title="Remove?"
      message="Gone."
      confirmLabel="Remove"
      onConfirm={() => undefined}
      onClose={() => undefined}
      error="not allowed"
    />,
  );
  expect(screen.getByRole('alert').textContent).toBe('not allowed');
});

it('closes before it acts when the action shows its outcome elsewhere', () => {
  const calls: string[] = [];
  render(
    <ConfirmDialog
      title="Delete folder"
      message="Its conversations stay."
      confirmLabel="Delete"
      closeFirst
      onConfirm={() => void calls.push('confirm')}
      onClose={() => void calls.push('close')}
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
  expect(calls).toEqual(['close', 'confirm']);
});
