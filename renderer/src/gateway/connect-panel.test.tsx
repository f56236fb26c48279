// The "Connect a tool" panel with a recording bridge: what it asks main to do for the chosen tool and model, the
// new key's secret shown once only when no file of the tool took it, the settings shown without connecting, and
// disconnect after a confirmation.

import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeClient } from '../../../shared/bridge/client.js';
import type { ConnectResult, ConnectToolInfo } from '../../../shared/bridge/connect-types.js';
import type { ModelOption } from '../../../shared/bridge/types.js';
import { BridgeProvider } from '../bridge/bridge-context.js';
import { ConnectPanel } from './connect-panel.js';

afterEach(cleanup);

const models: ModelOption[] = [{ id: 'up/echo-1', name: 'echo-1', provider: 'up', acceptsImages: false }];

function toolInfo(id: ConnectToolInfo['id'], name: string, connected = false): ConnectToolInfo {
  return {
    id,
    name,
    modelOptional: id !== 'opencode',
    connected,
    model: connected ? 'up/echo-1' : null,
    keyId: connected ? 'key-9' : null,
    files: [`/home/ada/.${id}/settings.json`],
    docs: [],
  };
}

const connected: ConnectResult = {
  tool: 'claude-code',
  name: 'Claude Code',
  keyId: 'key-9',
  keyName: 'claude-code',
  replacedKeyId: null,
  files: [
    {
      path: '/home/ada/.claude/settings.json',
      created: false,
      backupPath: '/home/ada/.claude/settings.json.switchyard-backup',
      keys: ['env.ANTHROPIC_BASE_URL', 'env.ANTHROPIC_AUTH_TOKEN'],
      holdsSecret: true,
    },
  ],
  notes: ['Restart Claude Code: it reads settings.json when it starts.'],
};

function renderPanel() {
  let isConnected = false;
  const invoke = vi.fn(async (channel: string, _request?: unknown) => {
    switch (channel) {
      case 'connect:list':
        return {
          tools: [toolInfo('codex', 'Codex'), toolInfo('claude-code', 'Claude Code', isConnected)],
        };
      case 'connect:apply':
        isConnected = true;
        return { result: connected, secret: 'sk-sy-v1-the-secret' };
      case 'connect:preview':
        return {
          tool: 'codex',
          name: 'Codex',
          files: [{ path: '/home/ada/.codex/config.toml', text: 'model_provider = "switchyard"\n' }],
          keyPlaceholder: 'PASTE_YOUR_SWITCHYARD_KEY',
          notes: ['Restart Codex.'],
        };
      case 'connect:undo':
        isConnected = false;
        return {
          tool: 'claude-code',
          name: 'Claude Code',
          wasConnected: true,
          files: [{ path: '/home/ada/.claude/settings.json', action: 'restored', savedAs: null }],
          deletedKeyId: 'key-9',
        };
      default:
        throw new Error(`unexpected ${channel}`);
    }
  });
  const bridge = { invoke, on: () => () => undefined } as unknown as BridgeClient;
  render(
    <BridgeProvider bridge={bridge}>
      <ConnectPanel models={models} />
    </BridgeProvider>,
  );
  return { invoke, user: userEvent.setup() };
}

describe('ConnectPanel', () => {
  it('connects the chosen tool with the chosen model, says the key is in its settings, and disconnects it after asking', async () => {
    const { invoke, user } = renderPanel();
    await user.selectOptions(await screen.findByLabelText('Tool'), 'claude-code');
    expect(screen.getByLabelText('Model for the tool')).toHaveProperty('value', 'up/echo-1');
    await user.click(screen.getByRole('button', { name: 'Connect' }));

    expect(invoke).toHaveBeenCalledWith('connect:apply', { tool: 'claude-code', model: 'up/echo-1' });
    const report = await screen.findByRole('status', { name: 'Claude Code connected' });
    // The key is in the tool's settings file: nothing to copy, so no secret on the screen.
    expect(report.textContent).toContain(
      'It is written into /home/ada/.claude/settings.json for Claude Code: there is nothing to copy.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByDisplayValue('sk-sy-v1-the-secret')).toBeNull();
    expect(report.textContent).toContain('original kept in /home/ada/.claude/settings.json.switchyard-backup');
    expect(report.textContent).toContain('Restart Claude Code');
    expect(await screen.findByRole('option', { name: 'Claude Code (connected)' })).toBeTruthy();

    // Disconnect deletes the key: it asks first, and Cancel does nothing.
    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect Claude Code?' });
    expect(confirm.textContent).toContain('its key key-9 is deleted');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(invoke).not.toHaveBeenCalledWith('connect:undo', expect.anything());
    await user.click(screen.getByRole('button', { name: 'Disconnect' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Disconnect Claude Code?' })).getByRole('button', {
        name: 'Disconnect and delete the key',
      }),
    );
    expect(invoke).toHaveBeenCalledWith('connect:undo', { tool: 'claude-code' });
    const undone = await screen.findByRole('status', { name: 'Claude Code disconnected' });
    expect(undone.textContent).toContain('restored from its backup');
    expect(undone.textContent).toContain('Deleted key key-9.');
  });

  it('shows the secret once when no file of the tool took it', async () => {
    connected.files[0]!.holdsSecret = false;
    try {
      const { user } = renderPanel();
      await user.selectOptions(await screen.findByLabelText('Tool'), 'claude-code');
      await user.click(screen.getByRole('button', { name: 'Connect' }));
      const dialog = await screen.findByRole('dialog', { name: 'Key "claude-code" created' });
      expect(within(dialog).getByLabelText('New API key')).toHaveProperty('value', 'sk-sy-v1-the-secret');
      await user.click(within(dialog).getByRole('button', { name: 'Done' }));
      expect(screen.queryByDisplayValue('sk-sy-v1-the-secret')).toBeNull();
      expect(screen.getByRole('status', { name: 'Claude Code connected' }).textContent).not.toContain(
        'nothing to copy',
      );
    } finally {
      connected.files[0]!.holdsSecret = true;
    }
  });

  it('shows the settings to copy without connecting, and lets the model be left to the tool', async () => {
    const { invoke, user } = renderPanel();
    await screen.findByRole('option', { name: 'Codex' });
    await user.clear(screen.getByLabelText('Model for the tool'));
    await user.click(screen.getByRole('button', { name: 'Show settings' }));

    expect(invoke).toHaveBeenCalledWith('connect:preview', { tool: 'codex' });
    expect(invoke).not.toHaveBeenCalledWith('connect:apply', expect.anything());
    const settings = await screen.findByLabelText('Codex settings');
    expect(within(settings).getByLabelText('/home/ada/.codex/config.toml').textContent).toContain(
      'model_provider = "switchyard"',
    );
    expect(settings.textContent).toContain('Put a key where PASTE_YOUR_SWITCHYARD_KEY stands');
  });
});
