// Which dollars are math: LaTeX in all four delimiters is typeset by KaTeX, prices stay text.

import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './markdown.js';

afterEach(cleanup);

function renderMarkdown(text: string) {
  return render(<Markdown text={text} />).container;
}

/** The TeX source of each formula, from the MathML KaTeX writes beside its drawing (for screen readers). */
function formulas(container: HTMLElement): string[] {
  return [...container.querySelectorAll('annotation[encoding="application/x-tex"]')].map((node) => node.textContent!);
}

describe('math in answers', () => {
  it('typesets $…$, $$…$$, \\(…\\) and \\[…\\], keeping \\, in the formula', () => {
    const container = renderMarkdown(
      'Energy: $E = mc^2$, inline \\(a^2 + b^2\\), and\n\n$$\\int_0^1 x\\,dx$$\n\nand\n\n\\[\\sum_{n=1}^{k} n\\]',
    );
    expect(formulas(container)).toEqual(['E = mc^2', 'a^2 + b^2', '\\int_0^1 x\\,dx', '\\sum_{n=1}^{k} n']);
    expect(container.querySelectorAll('.katex-display')).toHaveLength(2);
    expect(container.textContent).not.toContain('$');
  });

  it('leaves prices as text', () => {
    for (const text of ['It costs $5 and $10.', 'From $5-$10 a month.', 'Pay $20, then $30 later.']) {
      const container = renderMarkdown(text);
      expect(formulas(container), text).toEqual([]);
      expect(container.textContent).toBe(text);
    }
  });

  it('leaves math in code alone', () => {
    const container = renderMarkdown('`$x$` and\n\n```tex\n\\(y\\)\n```');
    expect(formulas(container)).toEqual([]);
    expect(container.textContent).toContain('$x$');
    expect(container.textContent).toContain('\\(y\\)');
  });
});

describe('code blocks', () => {
  it('name their language in the header, beside the copy button', () => {
    const container = renderMarkdown('```python\nprint(1)\n```\n\n```\nplain\n```');
    const headers = [...container.querySelectorAll('.code-header')];
    expect(headers.map((header) => header.querySelector('.code-language')?.textContent)).toEqual(['python', 'text']);
    expect(headers[0]!.querySelector('button[aria-label="Copy code"]')).not.toBeNull();
  });
});
