// The conversation's system prompt and temperature; saved when a field is left.

import { useState } from 'react';
import type { Conversation } from '../../../shared/bridge/types.js';
import { useChanged } from '../ui/use-changed.js';

interface ConversationSettingsProps {
  conversation: Conversation;
  onSave(changes: { systemPrompt?: string; temperature?: number | null }): void;
}

export function ConversationSettings({ conversation, onSave }: ConversationSettingsProps) {
  const [systemPrompt, setSystemPrompt] = useState(conversation.systemPrompt);
  const [temperature, setTemperature] = useState(conversation.temperature?.toString() ?? '');
  if (useChanged(conversation.id, conversation.systemPrompt, conversation.temperature)) {
    setSystemPrompt(conversation.systemPrompt);
    setTemperature(conversation.temperature?.toString() ?? '');
  }

  const parsedTemperature = temperature.trim() === '' ? null : Number(temperature);
  const temperatureValid = parsedTemperature === null || (parsedTemperature >= 0 && parsedTemperature <= 2);

  return (
    <section className="conversation-settings" aria-label="Conversation settings">
      <label>
        <span>System prompt</span>
        <textarea
          value={systemPrompt}
          rows={4}
          placeholder="How the model should behave in this conversation"
          onChange={(event) => setSystemPrompt(event.target.value)}
          onBlur={() => {
            if (systemPrompt !== conversation.systemPrompt) onSave({ systemPrompt });
          }}
        />
      </label>
      <label className="temperature">
        <span>Temperature</span>
        <input
          type="number"
          min={0}
          max={2}
          step={0.1}
          placeholder="model default"
          value={temperature}
          aria-invalid={!temperatureValid}
          onChange={(event) => setTemperature(event.target.value)}
          onBlur={() => {
            if (temperatureValid && parsedTemperature !== conversation.temperature) {
              onSave({ temperature: parsedTemperature });
            }
          }}
        />
        <small>{temperatureValid ? 'Empty: the model’s default. 0 to 2.' : 'Use a number from 0 to 2.'}</small>
      </label>
    </section>
  );
}
