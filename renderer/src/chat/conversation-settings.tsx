// The settings of a conversation, or of a chat not created yet (they become the conversation's when its first
// message creates it): system prompt, sampling, limits, stop sequences and, for a model that reasons, how hard it
// thinks. A field saves when it is left; a value out of range is kept as typed, explained at the field and not
// saved until it is right. Empty means the model's own default.

import { useState } from 'react';
import { defaultChatSettings } from '../../../shared/bridge/chat-message.js';
import { maxStopSequenceChars, maxStopSequences } from '../../../shared/bridge/limits.js';
import type { ChatReasoningEffort, ChatSettings } from '../../../shared/bridge/types.js';
import { Field } from '../ui/parts.js';
import { useChanged } from '../ui/use-changed.js';

interface ConversationSettingsProps {
  /** Whose settings these are (a conversation's id, or `new`): fields start over when it changes. */
  owner: string;
  settings: ChatSettings;
  /** The model is known to reason: the reasoning effort is offered. */
  reasons: boolean;
  onSave(changes: Partial<ChatSettings>): void;
  onSaveAsPreset(): void;
  onManagePresets(): void;
}

type NumberSettingName = 'temperature' | 'topP' | 'maxTokens' | 'seed';

/** The settings that are numbers, in the panel's order: the values each takes, and what it does. */
const numberSettings: { name: NumberSettingName; label: string; rule: NumberRule; hint: string }[] = [
  {
    name: 'temperature',
    label: 'Temperature',
    rule: { min: 0, max: 2, integer: false, problem: 'Use a number from 0 to 2.' },
    hint: '0 to 2. Higher: more varied.',
  },
  {
    name: 'topP',
    label: 'Top P',
    rule: { min: 0, max: 1, integer: false, problem: 'Use a number from 0 to 1.' },
    hint: '0 to 1. Lower: only the likeliest words.',
  },
  {
    name: 'maxTokens',
    label: 'Max tokens',
    rule: { min: 1, max: 100_000_000, integer: true, problem: 'Use a whole number of 1 or more.' },
    hint: 'The longest reply, in tokens.',
  },
  {
    name: 'seed',
    label: 'Seed',
    rule: { integer: true, problem: 'Use a whole number.' },
    hint: 'The same seed repeats answers where the model can.',
  },
];

export function ConversationSettings({ owner, settings, reasons, onSave, ...actions }: ConversationSettingsProps) {
  const [systemPrompt, setSystemPrompt] = useState(settings.systemPrompt);
  if (useChanged(owner, settings.systemPrompt)) setSystemPrompt(settings.systemPrompt);

  return (
    <section className="chat-settings-panel" aria-label="Conversation settings">
      <Field label="System prompt">
        {(props) => (
          <textarea
            {...props}
            value={systemPrompt}
            rows={4}
            placeholder="How the model should behave in this conversation"
            onChange={(event) => setSystemPrompt(event.target.value)}
            onBlur={() => {
              if (systemPrompt !== settings.systemPrompt) onSave({ systemPrompt });
            }}
          />
        )}
      </Field>
      <div className="chat-settings-numbers">
        {numberSettings.map(({ name, ...setting }) => (
          <NumberSetting
            key={name}
            {...setting}
            owner={owner}
            value={settings[name]}
            onSave={(value) => {
              const change: Partial<Record<NumberSettingName, number | null>> = { [name]: value };
              onSave(change);
            }}
          />
        ))}
        {reasons ? (
          <Field label="Reasoning effort" hint="How long the model thinks before it answers.">
            {(props) => (
              <select
                {...props}
                value={settings.reasoningEffort ?? ''}
                onChange={(event) =>
                  onSave({ reasoningEffort: (event.target.value || null) as ChatReasoningEffort | null })
                }
              >
                <option value="">Model default</option>
                <option value="low">Low</option>
                <option value="medium">Medium</option>
                <option value="high">High</option>
              </select>
            )}
          </Field>
        ) : null}
      </div>
      <StopSequences owner={owner} stop={settings.stop} onSave={(stop) => onSave({ stop })} />
      <div className="chat-settings-actions">
        <button
          type="button"
          disabled={sameSettings(settings, { ...defaultChatSettings, systemPrompt: settings.systemPrompt })}
          onClick={() => {
            const { systemPrompt: _kept, ...defaults } = defaultChatSettings;
            onSave(defaults);
          }}
        >
          Reset to model defaults
        </button>
        <button type="button" onClick={actions.onSaveAsPreset}>
          Save as preset…
        </button>
        <button type="button" onClick={actions.onManagePresets}>
          Manage presets…
        </button>
      </div>
    </section>
  );
}

function sameSettings(a: ChatSettings, b: ChatSettings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface NumberRule {
  min?: number;
  max?: number;
  integer: boolean;
  /** What to do instead, said at the field. */
  problem: string;
}

/** The number typed, null for empty (the model's default), or undefined when it breaks the rule. */
export function parseSetting(text: string, rule: NumberRule): number | null | undefined {
  if (text.trim() === '') return null;
  const value = Number(text.trim());
  if (!Number.isFinite(value)) return undefined;
  if (rule.integer && !Number.isSafeInteger(value)) return undefined;
  if ((rule.min !== undefined && value < rule.min) || (rule.max !== undefined && value > rule.max)) return undefined;
  return value;
}

function NumberSetting(props: {
  label: string;
  owner: string;
  value: number | null;
  rule: NumberRule;
  hint: string;
  onSave(value: number | null): void;
}) {
  const { value, rule } = props;
  const [text, setText] = useState(value?.toString() ?? '');
  if (useChanged(props.owner, value)) setText(value?.toString() ?? '');
  const parsed = parseSetting(text, rule);
  return (
    <Field
      label={props.label}
      error={parsed === undefined ? rule.problem : null}
      hint={`${props.hint} Empty: default.`}
    >
      {(fieldProps) => (
        <input
          {...fieldProps}
          type="text"
          inputMode={rule.integer ? 'numeric' : 'decimal'}
          autoComplete="off"
          placeholder="default"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onBlur={() => {
            if (parsed !== undefined && parsed !== value) props.onSave(parsed);
          }}
        />
      )}
    </Field>
  );
}

/**
 * A stop sequence as typed in a one-line field: `\n` stands for a new line and `\t` for a tab, the usual
 * sequences ("\n\nUser:") being made of them.
 */
export function typedSequence(sequence: string): string {
  return sequence.replaceAll('\n', '\\n').replaceAll('\t', '\\t');
}

export function sequenceOfTyped(typed: string): string {
  return typed.replaceAll('\\n', '\n').replaceAll('\\t', '\t');
}

/** Up to four sequences that end a reply; an emptied one is dropped when saved. */
function StopSequences({ owner, stop, onSave }: { owner: string; stop: string[]; onSave(stop: string[]): void }) {
  const [rows, setRows] = useState(() => stop.map(typedSequence));
  if (useChanged(owner, stop.join('\u0000'))) setRows(stop.map(typedSequence));
  const save = (next: string[]) => {
    const kept = next.filter((sequence) => sequence !== '').map(sequenceOfTyped);
    if (kept.join('\u0000') !== stop.join('\u0000')) onSave(kept);
  };
  return (
    <fieldset className="fieldset stop-sequences">
      <legend>Stop sequences</legend>
      {rows.map((sequence, index) => (
        <div className="stop-sequence" key={index}>
          <input
            aria-label={`Stop sequence ${index + 1}`}
            value={sequence}
            maxLength={maxStopSequenceChars}
            autoFocus={sequence === '' && index === rows.length - 1}
            onChange={(event) => setRows(rows.map((row, at) => (at === index ? event.target.value : row)))}
            onBlur={() => save(rows)}
          />
          <button
            type="button"
            onClick={() => {
              const next = rows.filter((_, at) => at !== index);
              setRows(next);
              save(next);
            }}
          >
            Remove
          </button>
        </div>
      ))}
      <p className="field-hint">
        {rows.length === 0 ? 'None: the model stops where it will. ' : ''}The reply ends before any of these texts, up
        to {maxStopSequences}. Type \n for a new line.
      </p>
      {rows.length < maxStopSequences ? (
        <button type="button" onClick={() => setRows([...rows, ''])}>
          Add stop sequence
        </button>
      ) : null}
    </fieldset>
  );
}
