// How deep a decoded JSON value nests. Request bodies are bounded in depth before anything walks them: the
// encoder that sends them upstream, and every recursive translation (Gemini's schema subset), would otherwise
// overflow the stack on a body that only a few kilobytes make 5,000 levels deep.

interface Visit {
  value: object;
  depth: number;
  key: string | number;
  parent: Visit | null;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
}

/** The path to the first value nested deeper than `maxDepth` (the body itself is depth 0), or null. Iterative. */
export function pathBeyondDepth(value: unknown, maxDepth: number): (string | number)[] | null {
  if (value === null || typeof value !== 'object') return null;
  const stack: Visit[] = [{ value, depth: 0, key: '', parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (visit.depth > maxDepth) return pathOf(visit);
    const children = Array.isArray(visit.value) ? visit.value.entries() : Object.entries(visit.value);
    for (const [key, child] of children) {
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child as object, depth: visit.depth + 1, key, parent: visit });
      }
    }
  }
  return null;
}
