// A server's resources: pick one to read it. Text shows as text, images as images, other binaries by size.

import { useCallback, useState } from 'react';
import type { McpResourceContent, McpServerStatus } from '../../../shared/bridge/types.js';
import { errorMessage, useBridge } from '../bridge/bridge-context.js';
import { EmptyState, ErrorNotice, Loading } from '../ui/parts.js';
import { useLoad } from '../ui/use-load.js';

export function ResourcesPanel({ server }: { server: McpServerStatus }) {
  const bridge = useBridge();
  const resources = useLoad(
    useCallback(
      async () =>
        server.state === 'connected'
          ? (await bridge.invoke('mcp:list-resources', { name: server.name })).resources
          : [],
      [bridge, server.name, server.state],
    ),
  );
  const [selected, setSelected] = useState<string | null>(null);
  const [contents, setContents] = useState<McpResourceContent[] | null>(null);
  const [readError, setReadError] = useState<string | null>(null);

  const read = async (uri: string) => {
    setSelected(uri);
    setContents(null);
    setReadError(null);
    try {
      setContents((await bridge.invoke('mcp:read-resource', { name: server.name, uri })).contents);
    } catch (failure) {
      setReadError(errorMessage(failure));
    }
  };

  if (server.state !== 'connected') {
    return (
      <EmptyState title="No resources to show">
        <p>Its resources show once it is connected.</p>
      </EmptyState>
    );
  }
  return (
    <div className="resources">
      <ErrorNotice message={resources.error} />
      {resources.data === undefined ? (
        <Loading what="resources" />
      ) : resources.data.length === 0 ? (
        <EmptyState title="This server offers no resources" />
      ) : (
        <div className="resources-layout">
          <ul className="resource-list" aria-label="Resources">
            {resources.data.map((resource) => (
              <li key={resource.uri}>
                <button
                  type="button"
                  aria-current={resource.uri === selected || undefined}
                  title={resource.uri}
                  onClick={() => void read(resource.uri)}
                >
                  <span className="resource-name">{resource.title ?? resource.name}</span>
                  <span className="mono muted resource-uri">{resource.uri}</span>
                </button>
              </li>
            ))}
          </ul>
          <section className="resource-content" aria-label="Resource content">
            <ErrorNotice message={readError} />
            {selected === null ? (
              <p className="muted">Choose a resource to read it.</p>
            ) : contents === null ? (
              readError ? null : (
                <Loading what={selected} />
              )
            ) : (
              contents.map((content, index) => <ContentView key={index} content={content} />)
            )}
          </section>
        </div>
      )}
    </div>
  );
}

function ContentView({ content }: { content: McpResourceContent }) {
  const type = content.mimeType ?? '';
  if ('text' in content) {
    return (
      <figure className="resource-item">
        <figcaption className="muted">
          {content.uri} {type ? `(${type})` : ''}
        </figcaption>
        <pre className="code-block">{content.text}</pre>
      </figure>
    );
  }
  const bytes = Math.round((content.blob.length * 3) / 4);
  return (
    <figure className="resource-item">
      <figcaption className="muted">
        {content.uri} ({type || 'binary'}, {bytes.toLocaleString()} bytes)
      </figcaption>
      {/^image\/(png|jpeg|gif|webp)$/.test(type) ? (
        <img alt={content.uri} src={`data:${type};base64,${content.blob}`} />
      ) : null}
    </figure>
  );
}
