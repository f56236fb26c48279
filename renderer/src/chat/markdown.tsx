// Markdown of the model's answers: GitHub-flavoured (tables, task lists, strikethrough), code highlighted by
// highlight.js through rehype-highlight (for fenced blocks that name their language). Raw HTML in the text is
// dropped, never rendered, and react-markdown's URL filter removes javascript: and other unsafe links. Code blocks
// carry a copy button; code blocks and tables scroll sideways inside the message (and take the keyboard focus, so
// that they can be scrolled without a mouse) instead of widening it.

import { memo, type AnchorHTMLAttributes, type HTMLAttributes } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { CopyIcon } from '../shell/icons.js';
import { CopyButton } from '../ui/copy-button.js';

function ExternalLink({ children, href, title }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  // In the desktop app, window.open is turned into the system browser by the shell.
  return (
    <a href={href} title={title} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

type HastNode = NonNullable<ExtraProps['node']>;

/** The text of a syntax tree node, as the code block shows it (highlighting only wraps it in spans). */
function plainText(node: HastNode | HastNode['children'][number]): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((child) => plainText(child as HastNode)).join('') : '';
}

function CodeBlock({ children, node }: HTMLAttributes<HTMLPreElement> & ExtraProps) {
  return (
    <div className="markdown-code">
      <pre tabIndex={0}>{children}</pre>
      <CopyButton
        className="code-copy"
        text={node ? plainText(node).replace(/\n$/, '') : ''}
        what="code"
        icon={<CopyIcon />}
      />
    </div>
  );
}

function ScrollingTable({ children }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="table-scroll" role="region" aria-label="Table" tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

const components: Components = { a: ExternalLink, pre: CodeBlock, table: ScrollingTable };
const remarkPlugins = [remarkGfm];
const rehypePlugins = [rehypeHighlight];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
});
