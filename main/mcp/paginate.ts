// MCP list requests return pages; a server may split even a short list. Follows `nextCursor` to the end, with a
// cap so a server that always returns a cursor cannot loop us forever.

const maxPages = 1_000;

export async function collectPages<Item>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: Item[]; nextCursor?: string }>,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return items;
}
