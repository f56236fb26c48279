// Markdown of the model's answers: GitHub-flavoured (tables, task lists, strikethrough), code highlighted by
// highlight.js through rehype-highlight (for fenced blocks that name their language). Raw HTML in the text is
// dropped, never rendered, and react-markdown's URL filter removes javascript: and other unsafe links.

import { memo, type AnchorHTMLAttributes } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';

function ExternalLink({ children, href, title }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  // In the desktop app, window.open is turned into the system browser by the shell.
  return (
    <a href={href} title={title} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

const components: Components = { a: ExternalLink };
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
