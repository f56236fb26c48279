// A tool's images and audio as media elements, checked once more here (shared/bridge/tool-media.ts): an <img> or
// an <audio controls> with a data URL of an allowed type, never the server's data as markup.

import { mediaDataUrl, showableMedia, type ToolMedia } from '../../../shared/bridge/tool-media.js';

export function ToolMediaList({ media, source }: { media: readonly ToolMedia[]; source: string }) {
  const shown = media.flatMap((item) => showableMedia(item) ?? []);
  if (shown.length === 0) return null;
  return (
    <div className="tool-media">
      {shown.map((item, index) =>
        item.type === 'image' ? (
          <img key={index} src={mediaDataUrl(item)} alt={`Image ${index + 1} from ${source}`} />
        ) : (
          <audio key={index} controls preload="metadata" src={mediaDataUrl(item)} aria-label={`Audio from ${source}`} />
        ),
      )}
    </div>
  );
}
