// Comparing models on screen: the bar that chooses 2–4 models (shown while Compare is on), and the columns in
// which their answers stream side by side — each with its tokens, cost ("unpriced" without a price), time to first
// token and total time, a Stop while it streams and "Continue with this" once done. In a narrow window the columns
// stack, each as wide as the conversation.

import type { CompareAnswer, ModelOption } from '../../../shared/bridge/types.js';
import { maxComparedModels } from '../../../shared/bridge/limits.js';
import { formatTimings, type CompareState } from './compare-state.js';
import { formatUsage } from './format.js';
import { Markdown } from './markdown.js';

export function CompareBar(props: {
  models: ModelOption[] | null;
  chosen: string[];
  onChange(models: string[]): void;
}) {
  const { models, chosen, onChange } = props;
  const addable = (models ?? []).filter((model) => !chosen.includes(model.id));
  return (
    <div className="compare-bar" role="group" aria-label="Models to compare">
      <ul className="compare-models">
        {chosen.map((model) => (
          <li key={model}>
            <span className="mono">{model}</span>
            <button
              type="button"
              aria-label={`Remove ${model} from the comparison`}
              onClick={() => onChange(chosen.filter((id) => id !== model))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {chosen.length < maxComparedModels ? (
        <select
          aria-label="Add a model to compare"
          value=""
          onChange={(event) => {
            if (event.target.value !== '') onChange([...chosen, event.target.value]);
          }}
        >
          <option value="">Add a model…</option>
          {addable.map((model) => (
            <option key={model.id} value={model.id}>
              {model.id}
            </option>
          ))}
        </select>
      ) : null}
      <span className="muted">
        {chosen.length < 2
          ? `Choose 2 to ${maxComparedModels} models: your next message goes to each of them.`
          : `Your next message goes to these ${chosen.length} models.`}
      </span>
    </div>
  );
}

interface CompareViewProps {
  state: CompareState;
  running: boolean;
  onStop(column?: number): void;
  onPick(column: number): void;
  onClose(): void;
}

export function CompareView({ state, running, onStop, onPick, onClose }: CompareViewProps) {
  return (
    <section className="compare-view" aria-label="Comparison">
      <div className="compare-head">
        <h2>Comparing {state.columns.length} models</h2>
        <p className="compare-prompt" title={state.text}>
          {state.text}
        </p>
        {running ? (
          <button type="button" className="danger" onClick={() => onStop()}>
            Stop all
          </button>
        ) : null}
        <button type="button" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <div className="compare-columns">
        {state.columns.map((answer, column) => (
          <CompareColumn
            key={answer.model}
            answer={answer}
            onStop={() => onStop(column)}
            onPick={() => onPick(column)}
          />
        ))}
      </div>
    </section>
  );
}

const statusLabels: Record<CompareAnswer['status'], string> = {
  streaming: 'Answering…',
  complete: 'Done',
  stopped: 'Stopped',
  error: 'Failed',
};

function CompareColumn({ answer, onStop, onPick }: { answer: CompareAnswer; onStop(): void; onPick(): void }) {
  const streaming = answer.status === 'streaming';
  const usage = formatUsage(answer.usage, answer.cost);
  return (
    <article className="compare-column" aria-label={`Answer of ${answer.model}`} aria-busy={streaming}>
      <header className="compare-column-head">
        <h3 className="mono">{answer.model}</h3>
        <span className={`compare-status status-${answer.status}`}>{statusLabels[answer.status]}</span>
      </header>
      <div className="compare-answer">
        {answer.reasoning !== '' ? (
          <details className="reasoning" open={streaming && answer.text === ''}>
            <summary>Reasoning</summary>
            <div className="reasoning-text">{answer.reasoning}</div>
          </details>
        ) : null}
        {answer.text !== '' ? (
          <Markdown text={answer.text} />
        ) : streaming && answer.reasoning === '' ? (
          <p className="muted">Waiting for the first token…</p>
        ) : null}
        {answer.error ? <p className="status-error">{answer.error}</p> : null}
      </div>
      <footer className="compare-column-foot">
        <p className="compare-metrics">
          {usage !== '' ? usage : streaming ? 'Tokens and cost at the end' : 'No usage reported'}
        </p>
        <p className="compare-metrics">{formatTimings(answer)}</p>
        {streaming ? (
          <button type="button" className="danger" aria-label={`Stop ${answer.model}`} onClick={onStop}>
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            aria-label={`Continue with this: ${answer.model}`}
            disabled={answer.status === 'error' || answer.text === ''}
            onClick={onPick}
          >
            Continue with this
          </button>
        )}
      </footer>
    </article>
  );
}
