// Model aliases: the fixed names tools send (`claude-sonnet-4-5`, `gpt-5-codex`) and the model (or model group, with
// its strategy) each one reaches.
// The same list as `switchyard models alias list`.

import { describeAliasGroup, type ModelAliasInfo } from '../../../shared/api/index.js';
import { useBridge } from '../bridge/bridge-context.js';
import { Table } from '../ui/table.js';
import { ListSection, useRemoval, type ListHandlers, type ListWords } from './list-section.js';

const words: ListWords = {
  title: 'Model aliases',
  addLabel: 'Add an alias',
  purpose:
    'Tools that send a fixed model name (Claude Code, Codex, gemini-cli) reach the model you choose for it, from any provider.',
};

interface AliasesSectionProps extends ListHandlers<ModelAliasInfo> {
  aliases: ModelAliasInfo[] | undefined;
}

export function AliasesSection({ aliases, error, onAdd, onEdit, onChanged }: AliasesSectionProps) {
  const bridge = useBridge();
  const removal = useRemoval((name) => bridge.invoke('aliases:remove', { name }), onChanged);

  return (
    <ListSection {...words} onAdd={onAdd} error={error ?? removal.error}>
      {aliases === undefined ? null : aliases.length === 0 ? (
        <p className="muted">No aliases yet.</p>
      ) : (
        <Table label="Model aliases" columns={['Alias', 'Model']} actions="Actions">
          {aliases.map((alias) => (
            <tr key={alias.name}>
              <td className="mono">{alias.name}</td>
              <td className="mono">{describeAliasGroup(alias)}</td>
              <td className="row-actions">
                <button type="button" aria-label={`Change the model of ${alias.name}`} onClick={() => onEdit(alias)}>
                  Change
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove the alias ${alias.name}`}
                  onClick={() => removal.remove(alias.name)}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </ListSection>
  );
}
