// The composer's way to a connected MCP server's prompts and resources: pick a prompt, fill in its arguments and
// its messages go into the message box (images as attachments); pick resources and they go with the message (main
// reads them when it is sent).

import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { mediaDataUrl } from '../../../shared/bridge/tool-media.js';
import type { McpPrompt, McpPromptMessages, McpResource, ResourceReference } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { SchemaForm } from '../mcp/schema-form.js';
import { validateArguments, withValueAt, type SchemaField } from '../mcp/schema-args.js';
import { Dialog } from '../ui/dialog.js';
import { EmptyState, ErrorNotice, Loading } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';
import type { Attachment } from './attachments.js';

/** A resource chosen in the picker, with the name it is shown by. */
export interface ChosenResource extends ResourceReference {
  name: string;
}

/** A prompt's messages as the composer takes them. */
export interface InsertedPrompt {
  text: string;
  images: Attachment[];
  /** The prompt's assistant messages, which a message of the user's cannot carry. */
  leftOut: number;
}

/** What every connected server offers of one kind; a server that fails to answer is named, the rest still shown. */
function useEveryServer<T>(list: (server: string) => Promise<T[]>) {
  const bridge = useBridge();
  return useLoad(
    useCallback(async () => {
      const { servers } = await bridge.invoke('mcp:list-servers', {});
      const connected = servers.filter((server) => server.state === 'connected');
      const answers = await Promise.all(
        connected.map(async (server) => {
          try {
            return { server: server.name, items: await list(server.name), error: null };
          } catch (failure) {
            return { server: server.name, items: [] as T[], error: `${server.name}: ${errorMessage(failure)}` };
          }
        }),
      );
      return {
        groups: answers.filter((answer) => answer.items.length > 0),
        errors: answers.flatMap((answer) => (answer.error ? [answer.error] : [])),
      };
    }, [bridge, list]),
  );
}

interface ServerGroup<T> {
  server: string;
  items: T[];
}

/**
 * What every connected server offers, as its picker shows it: the servers that failed, "Loading …", the empty state
 * when none offers any, or `children` with the servers that do.
 */
function EveryServerLoaded<T>({
  loaded,
  what,
  children,
}: {
  loaded: { data?: { groups: ServerGroup<T>[]; errors: string[] }; error: string | null };
  what: 'prompts' | 'resources';
  children(groups: ServerGroup<T>[]): ReactNode;
}) {
  const groups = loaded.data?.groups ?? [];
  return (
    <>
      <ErrorNotice message={loaded.error ?? loaded.data?.errors.join(' ') ?? null} />
      {loaded.data === undefined ? (
        <Loading what={what} />
      ) : groups.length === 0 ? (
        <EmptyState title={`No ${what}`}>
          <p>None of your connected MCP servers offers {what}.</p>
        </EmptyState>
      ) : (
        children(groups)
      )}
    </>
  );
}

export function PromptDialog({ onInsert, onClose }: { onInsert(prompt: InsertedPrompt): void; onClose(): void }) {
  const bridge = useBridge();
  const loaded = useEveryServer(
    useCallback(
      async (server: string) => (await bridge.invoke('mcp:list-prompts', { name: server })).prompts,
      [bridge],
    ),
  );
  const [chosen, setChosen] = useState<{ server: string; prompt: McpPrompt } | null>(null);
  const [args, setArgs] = useState<Record<string, unknown>>({});
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = useMemo<SchemaField[]>(
    () =>
      (chosen?.prompt.arguments ?? []).map((argument) => ({
        kind: 'simple',
        type: 'string',
        name: argument.name,
        path: argument.name,
        required: argument.required,
        ...(argument.description ? { description: argument.description } : {}),
      })),
    [chosen],
  );
  const errors = tried ? validateArguments(fields, args) : new Map<string, string>();
  const groups = loaded.data?.groups ?? [];

  const choose = (key: string) => {
    const [server, name] = JSON.parse(key) as [string, string];
    const prompt = groups.find((group) => group.server === server)?.items.find((item) => item.name === name);
    setChosen(prompt ? { server, prompt } : null);
    setArgs({});
    setTried(false);
    setError(null);
  };

  const insert = async () => {
    if (!chosen) return;
    setTried(true);
    if (validateArguments(fields, args).size > 0) return;
    setBusy(true);
    setError(null);
    try {
      const result = await bridge.invoke('mcp:get-prompt', {
        name: chosen.server,
        prompt: chosen.prompt.name,
        arguments: args as Record<string, string>,
      });
      onInsert(promptForComposer(result, chosen.prompt.title ?? chosen.prompt.name));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Dialog title="Use a prompt" onClose={onClose} description="Prompts of your connected MCP servers.">
      <EveryServerLoaded loaded={loaded} what="prompts">
        {(groups) => (
          <div className="form">
            <label className="field">
              <span className="field-label">Prompt</span>
              <select
                value={chosen ? JSON.stringify([chosen.server, chosen.prompt.name]) : ''}
                onChange={(event) => choose(event.target.value)}
              >
                <option value="" disabled>
                  Choose a prompt…
                </option>
                {groups.map((group) => (
                  <optgroup key={group.server} label={group.server}>
                    {group.items.map((prompt) => (
                      <option key={prompt.name} value={JSON.stringify([group.server, prompt.name])}>
                        {prompt.title ?? prompt.name}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </label>
            {chosen?.prompt.description ? <p className="muted">{chosen.prompt.description}</p> : null}
            {chosen && fields.length > 0 ? (
              <SchemaForm
                fields={fields}
                value={args}
                errors={errors}
                onChange={(path, next) => setArgs((current) => withValueAt(current, path, next))}
              />
            ) : null}
          </div>
        )}
      </EveryServerLoaded>
      <ErrorNotice message={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!chosen || busy} onClick={() => void insert()}>
          {busy ? 'Getting the prompt…' : 'Insert'}
        </button>
      </div>
    </Dialog>
  );
}

/** The user's part of a prompt as one message: texts and embedded resources in order, images as attachments. */
export function promptForComposer(result: McpPromptMessages, promptName: string): InsertedPrompt {
  const texts: string[] = [];
  const images: Attachment[] = [];
  let leftOut = 0;
  for (const { role, content } of result.messages) {
    if (role !== 'user') {
      leftOut += 1;
    } else if (content.type === 'text') {
      texts.push(content.text);
    } else if (content.type === 'resource') {
      texts.push(`${content.uri}:\n\n${content.text}`);
    } else {
      const dataUrl = mediaDataUrl(content.media);
      images.push({ kind: 'image', name: `Image from ${promptName}`, size: base64Bytes(dataUrl), dataUrl });
    }
  }
  return { text: texts.join('\n\n'), images, leftOut };
}

export function ResourceDialog({
  onAttach,
  onClose,
}: {
  onAttach(resources: ChosenResource[]): void;
  onClose(): void;
}) {
  const bridge = useBridge();
  const loaded = useEveryServer(
    useCallback(
      async (server: string) => (await bridge.invoke('mcp:list-resources', { name: server })).resources,
      [bridge],
    ),
  );
  const [chosen, setChosen] = useState<ChosenResource[]>([]);
  const isChosen = (server: string, resource: McpResource) =>
    chosen.some((item) => item.server === server && item.uri === resource.uri);
  const toggle = (server: string, resource: McpResource, on: boolean) =>
    setChosen((current) =>
      on
        ? [...current, { server, uri: resource.uri, name: resource.title ?? resource.name }]
        : current.filter((item) => !(item.server === server && item.uri === resource.uri)),
    );

  return (
    <Dialog
      title="Attach resources"
      onClose={onClose}
      description="Their text or image goes with your message, read when it is sent."
    >
      <EveryServerLoaded loaded={loaded} what="resources">
        {(groups) => (
          <div className="resource-picker">
            {groups.map((group) => (
              <fieldset key={group.server} className="fieldset">
                <legend>{group.server}</legend>
                {group.items.map((resource) => (
                  <label key={resource.uri} className="checkbox" title={resource.uri}>
                    <input
                      type="checkbox"
                      checked={isChosen(group.server, resource)}
                      onChange={(event) => toggle(group.server, resource, event.target.checked)}
                    />
                    <span>{resource.title ?? resource.name}</span>
                    <span className="mono muted resource-uri">{resource.uri}</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
        )}
      </EveryServerLoaded>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={chosen.length === 0} onClick={() => onAttach(chosen)}>
          {chosen.length > 1 ? `Attach ${chosen.length}` : 'Attach'}
        </button>
      </div>
    </Dialog>
  );
}

/** The decoded size of a base64 data URL. */
function base64Bytes(dataUrl: string): number {
  return Math.floor(((dataUrl.length - dataUrl.indexOf(',') - 1) * 3) / 4);
}
