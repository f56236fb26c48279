// MCP list requests return pages; a server may split even a short list. Follows `nextCursor` to the end, with a
// cap so a server that always returns a cursor cannot loop us forever.

const maxPages = 1_000;

/** Every item of a paged list: `fetchPage` asks for one page (the first without a cursor), `itemsOf` reads it. */
export async function collectPages<Page extends { nextCursor?: string }, Item>(
  fetchPage: (params: { cursor: string } | undefined) => Promise<Page>,
  itemsOf: (page: Page) => Item[],
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let count = 0; count < maxPages; count += 1) {
    const page = await fetchPage(cursor ? { cursor } : undefined);
    items.push(...itemsOf(page));
    if (!page.nextCursor || page.nextCursor === cursor) break;
    cursor = page.nextCursor;
  }
  return items;
}
