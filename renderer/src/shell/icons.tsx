// Small line icons drawn inline (no icon font, no external files). Decorative: labels are on the controls.

import type { ReactNode } from 'react';

const common = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
};

/** An icon component drawing `drawing` in the text colour, `size` pixels square. */
function lineIcon(drawing: ReactNode, size = 20) {
  return function LineIcon() {
    return (
      <svg width={size} height={size} {...common}>
        {drawing}
      </svg>
    );
  };
}

export const ChatIcon = lineIcon(<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z" />);

export const PlusIcon = lineIcon(<path d="M12 5v14M5 12h14" />);

export const PencilIcon = lineIcon(<path d="M4 20h4L19 9l-4-4L4 16v4Z" />, 16);

export const SidebarIcon = lineIcon(<path d="M4 5h16v14H4zM9 5v14" />);

export const CopyIcon = lineIcon(<path d="M9 9h10v11H9zM5 15V4h10" />, 16);

export const RegenerateIcon = lineIcon(<path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />, 16);

export const TrashIcon = lineIcon(<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />, 16);

export const ImageIcon = lineIcon(
  <>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="2" />
    <path d="m21 17-5-5-9 8" />
  </>,
);

/** A prompt of an MCP server: a page with lines of text. */
export const PromptIcon = lineIcon(<path d="M6 3h9l4 4v14H6zM9 10h7M9 14h7M9 18h4" />);

/** A resource attached to a message. */
export const PaperclipIcon = lineIcon(
  <path d="m20 11-8.5 8.5a5 5 0 0 1-7-7L13 4a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L14 7" />,
);

export const SlidersIcon = lineIcon(
  <>
    <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0" />
    <circle cx="16" cy="6" r="2" />
    <circle cx="10" cy="12" r="2" />
    <circle cx="18" cy="18" r="2" />
  </>,
);

export const ToolIcon = lineIcon(
  <path d="M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.8-.7-.7-2.8 2.5-2.5Z" />,
  16,
);

export const CloudIcon = lineIcon(<path d="M7 18h10a4 4 0 0 0 .6-8A6 6 0 0 0 6.2 9.2 4.5 4.5 0 0 0 7 18Z" />);

export const PlugIcon = lineIcon(<path d="M9 3v5M15 3v5M6 8h12v3a6 6 0 0 1-12 0V8ZM12 17v4" />);

export const KeyIcon = lineIcon(
  <>
    <circle cx="8" cy="15" r="4" />
    <path d="m11 12 9-9M16 7l3 3M14 9l2 2" />
  </>,
);

export const ChartIcon = lineIcon(<path d="M4 20V4M4 20h16M8 16v-4M12 16V8M16 16v-6" />);

export const GatewayIcon = lineIcon(<path d="M4 7h12M4 17h12M13 4l3 3-3 3M13 14l3 3-3 3M20 4v16" />);

/** A disclosure's: points right when closed; turned down (CSS) when open. */
export const ChevronIcon = lineIcon(<path d="m9 6 6 6-6 6" />, 16);

export const DownloadIcon = lineIcon(<path d="M12 4v11M7 10l5 5 5-5M5 20h14" />);

export const ImportIcon = lineIcon(<path d="M12 15V4M7 9l5-5 5 5M5 20h14" />, 16);

/** ChevronIcon's other way: back. */
export const ChevronBackIcon = lineIcon(<path d="m15 6-6 6 6 6" />, 16);
