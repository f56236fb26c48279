// Model aliases: the fixed names tools send (`claude-sonnet-4-5`, `gpt-5-codex`) and the model each one reaches.
// The same list as `switchyard models alias list`.

import { useState } from 'react';
import type { ModelAliasInfo } from '../../../shared/api/index.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { ErrorNotice } from '../ui/parts.js';
import { Table } from '../ui/table.js';

interface AliasesSectionProps {
  aliases: ModelAliasInfo[] | undefined;
  error: string | null;
  onAdd(): void;
  onEdit(alias: ModelAliasInfo): void;
  onChanged(): void;
}

export function AliasesSection({ aliases, error, onAdd, onEdit, onChanged }: AliasesSectionProps) {
  const bridge = useBridge();
  const [removeError, setRemoveError] = useState<string | null>(null);

  const remove = async (name: string) => {
    try {
      await bridge.invoke('aliases:remove', { name });
      setRemoveError(null);
      onChanged();
    } catch (failure) {
      setRemoveError(errorMessage(failure));
    }
  };

  return (
    <section className="section" aria-labelledby="aliases-title">
      <div className="section-header">
        <h2 id="aliases-title">Model aliases</h2>
        <button type="button" onClick={onAdd}>
          Add an alias
        </button>
      </div>
      <p className="muted">
        Tools that send a fixed model name (Claude Code, Codex, gemini-cli) reach the model you choose for it, from any
        provider.
      </p>
      <ErrorNotice message={error ?? removeError} />
      {aliases === undefined ? null : aliases.length === 0 ? (
        <p className="muted">No aliases yet.</p>
      ) : (
        <Table label="Model aliases" columns={['Alias', 'Model']} actions="Actions">
          {aliases.map((alias) => (
            <tr key={alias.name}>
              <td className="mono">{alias.name}</td>
              <td className="mono">{alias.target}</td>
              <td className="row-actions">
                <button type="button" aria-label={`Change the model of ${alias.name}`} onClick={() => onEdit(alias)}>
                  Change
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove the alias ${alias.name}`}
                  onClick={() => void remove(alias.name)}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
