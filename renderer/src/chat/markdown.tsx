// Markdown of the model's answers: GitHub-flavoured (tables, task lists, strikethrough), code highlighted by
// highlight.js through rehype-highlight (for fenced blocks that name their language), LaTeX math typeset by KaTeX
// (remark-math + rehype-katex; which dollars are math: math.ts; its fonts are bundled files, never fetched). Raw
// HTML in the text is dropped, never rendered, and react-markdown's URL filter removes javascript: and other
// unsafe links. Code blocks carry a header with their language and a copy button; code blocks, tables and wide
// formulas scroll sideways inside the message (and take the keyboard focus, so that they can be scrolled without a
// mouse) instead of widening it.

import { memo, type AnchorHTMLAttributes, type HTMLAttributes } from 'react';
import ReactMarkdown, { type Components, type ExtraProps, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import 'katex/dist/katex.min.css';
import { normalizeMath, remarkDollarPrices } from './math.js';
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

/** The language a fenced block named (```ts), from its code element's `language-…` class. */
function languageOf(node: HastNode | undefined): string | null {
  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
  const classes = code && code.type === 'element' ? code.properties.className : undefined;
  const language = Array.isArray(classes)
    ? classes.map(String).find((name) => name.startsWith('language-'))
    : undefined;
  return language ? language.slice('language-'.length) : null;
}

function CodeBlock({ children, node }: HTMLAttributes<HTMLPreElement> & ExtraProps) {
  const language = languageOf(node);
  return (
    <div className="markdown-code">
      <div className="code-header">
        <span className="code-language">{language ?? 'text'}</span>
        <CopyButton
          className="code-copy"
          text={node ? plainText(node).replace(/\n$/, '') : ''}
          what="code"
          icon={<CopyIcon />}
        />
      </div>
      <pre tabIndex={0} aria-label={language ? `Code (${language})` : 'Code'}>
        {children}
      </pre>
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
const remarkPlugins: Options['remarkPlugins'] = [remarkGfm, remarkMath, remarkDollarPrices];
// KaTeX first: highlight.js must not take a display formula for a code block. A formula KaTeX cannot read shows
// as its source in red, not as an error of the whole answer.
const rehypePlugins: Options['rehypePlugins'] = [
  [rehypeKatex, { throwOnError: false, strict: 'ignore' }],
  rehypeHighlight,
];

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml>
        {normalizeMath(text)}
      </ReactMarkdown>
    </div>
  );
});
