// What the server wrote to stderr (and our notes on its life), kept current while shown. Polled once a second
// rather than pushed: a chatty server would otherwise fill the event stream that the chat replays after a
// reconnect, and the log is only looked at now and then. Repeated lines show once, with their count (log-repeats.ts).

import { useEffect, useRef, useState } from 'react';
import type { McpLogLine } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { EmptyState, ErrorNotice } from '../ui/parts.js';
import { collapseRepeats, describeRepeat } from './log-repeats.js';

const pollMs = 1_000;

export function LogsPanel({ name }: { name: string }) {
  const bridge = useBridge();
  const [lines, setLines] = useState<McpLogLine[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const view = useRef<HTMLPreElement>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const answer = await bridge.invoke('mcp:logs', { name });
        if (!stopped) {
          setLines(answer.lines);
          setError(null);
        }
      } catch (failure) {
        if (!stopped) setError(errorMessage(failure));
      }
      if (!stopped) timer = setTimeout(() => void poll(), pollMs);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [bridge, name]);

  // Follow the end, unless the user scrolled up to read.
  const count = lines?.length ?? 0;
  useEffect(() => {
    const element = view.current;
    if (element && element.scrollHeight - element.scrollTop - element.clientHeight < 40) {
      element.scrollTop = element.scrollHeight;
    }
  }, [count]);

  return (
    <div>
      <ErrorNotice message={error} />
      {lines !== null && lines.length === 0 ? (
        <EmptyState title="Nothing logged yet" />
      ) : (
        <pre ref={view} className="log-view" tabIndex={0} aria-label={`Log of ${name}`}>
          {collapseRepeats(lines ?? []).map((row, index) =>
            row.kind === 'line' ? (
              <span key={index} className={`log-line log-${row.line.source}`}>
                {row.line.source === 'stderr' ? row.line.text : `[${row.line.source}] ${row.line.text}`}
                {'\n'}
              </span>
            ) : (
              <span key={index} className="log-line log-repeat">
                {describeRepeat(row)}
                {'\n'}
              </span>
            ),
          )}
        </pre>
      )}
    </div>
  );
}
