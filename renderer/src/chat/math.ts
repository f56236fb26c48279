// LaTeX in answers. Models write math as $…$, $$…$$, \(…\) and \[…\]; remark-math reads only the dollar forms, so
// the bracket forms become dollar forms first (never inside code), and a `$$…$$` alone on its line becomes a
// display block. A single dollar also starts prices: "$5 and $10" must stay text. As Pandoc decides it, `$…$` is
// math only when the text inside neither starts nor ends with a space and the closing dollar is not followed by a
// digit; otherwise it is put back as the text it was (remarkDollarPrices, after remark-math).

/** Fenced code blocks and code spans: what math delimiters must not be looked for in. */
const codePattern = /(```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`)/;

function bracketsToDollars(text: string): string {
  return text
    .replace(/\\\[([\s\S]+?)\\\]/g, (_, body: string) => `\n$$\n${body.trim()}\n$$\n`)
    .replace(/\\\(([\s\S]+?)\\\)/g, (_, body: string) => `$$${body.trim()}$$`)
    .replace(/^([ \t]*)\$\$([^\n$]+?)\$\$[ \t]*$/gm, (_, indent: string, body: string) => {
      return `${indent}$$\n${indent}${body.trim()}\n${indent}$$`;
    });
}

/** The markdown with every math delimiter in a form remark-math reads; code is left as it is. */
export function normalizeMath(markdown: string): string {
  if (!markdown.includes('\\(') && !markdown.includes('\\[') && !markdown.includes('$$')) return markdown;
  return markdown
    .split(codePattern)
    .map((piece, index) => (index % 2 === 1 ? piece : bracketsToDollars(piece)))
    .join('');
}

// The little of mdast this needs (the markdown syntax tree of remark).
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/** Whether the single-dollar math at [start, end) of the source reads as a price rather than math. */
function isPrice(source: string, start: number, end: number): boolean {
  const raw = source.slice(start, end);
  if (!raw.startsWith('$') || raw.startsWith('$$')) return false;
  const inner = raw.slice(1, -1);
  return /^\s|\s$/.test(inner) || /^\d/.test(source.slice(end));
}

function restorePrices(node: MdNode, source: string): void {
  node.children?.forEach((child, index, siblings) => {
    const start = child.position?.start.offset;
    const end = child.position?.end.offset;
    if (child.type === 'inlineMath' && start !== undefined && end !== undefined && isPrice(source, start, end)) {
      siblings[index] = { type: 'text', value: source.slice(start, end) };
    } else restorePrices(child, source);
  });
}

/** A remark plugin: single-dollar "math" that is really prices goes back to text. */
export function remarkDollarPrices() {
  return (tree: MdNode, file: { value?: unknown }) => restorePrices(tree, String(file.value ?? ''));
}
