// The conversation list as a person organizes it in the browser against `switchyard serve`: pinned conversations
// first under "Pinned", folders that fold, conversations moved into a folder and out of it, a folder renamed and
// deleted (its conversations stay), and a conversation deleted only after a question in words.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChatFolder, Conversation } from '../../shared/bridge/types.js';
import { expectLooksRight } from './a11y.js';
import { useChatUi } from './chat-ui-harness.js';
import { chatAtWidth, conversationList, hasFocus, type UiHarness } from './ui-harness.js';

let ui: UiHarness;

useChatUi((started) => ({ ui } = started));

/** Starts from three conversations, oldest first, and no folders. */
async function seedConversations(): Promise<void> {
  const { conversations } = await ui.invoke<{ conversations: Conversation[] }>('chat:list-conversations');
  for (const conversation of conversations) await ui.invoke('chat:delete-conversation', { id: conversation.id });
  const { folders } = await ui.invoke<{ folders: ChatFolder[] }>('chat:list-folders');
  for (const folder of folders) await ui.invoke('chat:delete-folder', { id: folder.id });
  for (const title of ['Trip plans', 'Tax return', 'Recipe ideas']) {
    const { conversation } = await ui.invoke<{ conversation: Conversation }>('chat:create-conversation', {
      model: 'fake/scripted-1',
    });
    await ui.invoke('chat:rename-conversation', { id: conversation.id, title });
  }
}

async function openChat(colorScheme: 'light' | 'dark', width: number): Promise<Page> {
  const { page } = await ui.open('Chat', { colorScheme });
  await chatAtWidth(page, width, 860);
  await (await conversationList(page)).getByRole('button', { name: 'Recipe ideas', exact: true }).waitFor();
  return page;
}

const list = (page: Page) => page.getByRole('complementary', { name: 'Conversations' });
const group = (page: Page, name: string) => list(page).getByRole('region', { name, exact: true });
const titles = (scope: Locator) => scope.locator('.conversation-title').allTextContents();

async function openMenu(page: Page, title: string): Promise<Locator> {
  await list(page)
    .getByRole('button', { name: `More for ${title}` })
    .click();
  return list(page).getByRole('group', { name: `Place ${title}` });
}

describe('the conversation list', () => {
  it.each([
    ['light', 1280],
    ['dark', 720],
  ] as const)('pins conversations and files them in folders (%s, %i px)', async (colorScheme, width) => {
    await seedConversations();
    const page = await openChat(colorScheme, width);
    if (!(await list(page).isVisible())) await page.getByRole('button', { name: 'Show conversations' }).click();
    expect(await titles(list(page))).toEqual(['Recipe ideas', 'Tax return', 'Trip plans']);

    // A folder, made from the list.
    await list(page).getByRole('button', { name: 'New folder' }).click();
    await list(page).getByRole('textbox', { name: 'New folder name' }).fill('Admin');
    await list(page).getByRole('textbox', { name: 'New folder name' }).press('Enter');
    const admin = group(page, 'Folder Admin');
    await admin.waitFor();
    expect(await admin.getByText('No conversations here yet.').isVisible()).toBe(true);

    // Moved into it from the conversation's menu; pinned from it.
    await (await openMenu(page, 'Tax return')).getByRole('button', { name: 'Move to Admin' }).click();
    await expect.poll(() => titles(admin)).toEqual(['Tax return']);
    await (await openMenu(page, 'Trip plans')).getByRole('button', { name: 'Pin' }).click();
    const pinned = group(page, 'Pinned');
    await expect.poll(() => titles(pinned)).toEqual(['Trip plans']);
    // The keyboard stays on the conversation's menu button, in the group it moved to.
    await expect.poll(() => hasFocus(pinned.getByRole('button', { name: 'More for Trip plans' }))).toBe(true);
    expect(await titles(group(page, 'Other conversations'))).toEqual(['Recipe ideas']);

    // Pinned first, then the folder, then the rest.
    const top = async (locator: Locator) => (await locator.boundingBox())!.y;
    expect(await top(pinned)).toBeLessThan(await top(admin));
    expect(await top(admin)).toBeLessThan(await top(group(page, 'Other conversations')));
    await ui.screenshot(page, `chat-list-groups-${colorScheme}-${width}`);
    await expectLooksRight(page, [pinned.getByRole('heading', { name: 'Pinned' }), admin.getByRole('heading')]);

    // A folder folds away and opens again, and says so.
    const toggle = admin.getByRole('button', { name: /^Admin/ });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await admin.getByRole('button', { name: 'Tax return', exact: true }).isVisible()).toBe(false);
    await toggle.click();
    expect(await admin.getByRole('button', { name: 'Tax return', exact: true }).isVisible()).toBe(true);

    // Dragged onto a folder, and back onto the rest.
    const recipe = list(page).getByRole('button', { name: 'Recipe ideas', exact: true });
    await recipe.dragTo(admin.getByRole('heading'));
    await expect.poll(() => titles(admin)).toEqual(['Recipe ideas', 'Tax return']);
    await admin.getByRole('button', { name: 'Recipe ideas', exact: true }).dragTo(group(page, 'Other conversations'));
    await expect.poll(() => titles(group(page, 'Other conversations'))).toEqual(['Recipe ideas']);

    // Out of the folder again, and unpinned.
    await (await openMenu(page, 'Tax return')).getByRole('button', { name: 'Remove from folder' }).click();
    await expect.poll(() => titles(admin)).toEqual([]);
    await (await openMenu(page, 'Trip plans')).getByRole('button', { name: 'Unpin' }).click();
    await expect.poll(() => group(page, 'Pinned').count()).toBe(0);
  });

  it('renames a folder and deletes it, keeping its conversations', async () => {
    await seedConversations();
    const page = await openChat('dark', 1280);
    const { folder } = await ui.invoke<{ folder: ChatFolder }>('chat:save-folder', { name: 'Work' });
    const { conversations } = await ui.invoke<{ conversations: Conversation[] }>('chat:list-conversations');
    const trip = conversations.find((conversation) => conversation.title === 'Trip plans')!;
    await ui.invoke('chat:place-conversation', { id: trip.id, folderId: folder.id });
    await page.reload();
    const work = group(page, 'Folder Work');
    await expect.poll(() => titles(work)).toEqual(['Trip plans']);

    await work.getByRole('button', { name: 'Rename folder Work' }).click();
    await list(page).getByRole('textbox', { name: 'Folder name' }).fill('Projects');
    await list(page).getByRole('textbox', { name: 'Folder name' }).press('Enter');
    const projects = group(page, 'Folder Projects');
    await expect.poll(() => titles(projects)).toEqual(['Trip plans']);

    await projects.getByRole('button', { name: 'Delete folder Projects' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete folder' });
    expect(await dialog.textContent()).toContain(
      'Delete the folder “Projects”? Its conversations stay, out of any folder.',
    );
    await expectLooksRight(page, [dialog.getByRole('button', { name: 'Delete' })]);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => projects.count()).toBe(0);
    await expect.poll(() => titles(list(page))).toEqual(['Recipe ideas', 'Tax return', 'Trip plans']);
  });

  it.each(['light', 'dark'] as const)('deletes a conversation only after asking in words (%s)', async (colorScheme) => {
    await seedConversations();
    const page = await openChat(colorScheme, 1280);
    const deleteButton = list(page).getByRole('button', { name: 'Delete Tax return' });
    await deleteButton.click();
    const dialog = page.getByRole('dialog', { name: 'Delete conversation' });
    expect(await dialog.getByText('Delete “Tax return”? Its messages are deleted too.').isVisible()).toBe(true);
    // Cancel has the focus, so Enter alone deletes nothing.
    expect(await hasFocus(dialog.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await ui.screenshot(page, `chat-delete-confirm-${colorScheme}`);
    await expectLooksRight(page, [dialog.getByRole('button', { name: 'Delete' })]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await titles(list(page))).toEqual(['Recipe ideas', 'Tax return', 'Trip plans']);

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => titles(list(page))).toEqual(['Recipe ideas', 'Trip plans']);
    const { conversations } = await ui.invoke<{ conversations: Conversation[] }>('chat:list-conversations');
    expect(conversations.map((conversation) => conversation.title)).toEqual(['Recipe ideas', 'Trip plans']);
  });
});
