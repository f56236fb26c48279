// Install links (`switchyard://mcp/install?…`, docs/decisions/040-install-links.md): where the app shows a link's
// confirmation, and what main says the link would write. Pure: the Electron shell, the renderer and main use it.

import type { EntryReview } from './review-entry.js';

export const installLinkScheme = 'switchyard:';
/** The prefix of every install link; the browser UI answers the same query at `/ui/mcp/install`. */
export const installLinkPrefix = 'switchyard://mcp/install';
/** Where the browser UI takes install links: `http://127.0.0.1:7420/ui/mcp/install?…`. */
export const installLinkUiPath = '/ui/mcp/install';

/** The app's address (route.ts) that opens the confirmation of `link`: the whole link, in one part. */
export function installLinkHash(link: string): string {
  return `#/mcp/link/${encodeURIComponent(link)}`;
}

/** The first `switchyard://` link among a second instance's command-line arguments (Windows and Linux). */
export function installLinkInArgs(args: readonly string[]): string | undefined {
  return args.find((arg) => arg.toLowerCase().startsWith(`${installLinkScheme}//`));
}

/** What a link would install, as the confirmation shows it; nothing is written before the person confirms. */
export type InstallLinkPreview =
  | {
      kind: 'registry';
      /** The registry server's name, e.g. `io.github.owner/server`. */
      name: string;
      version?: string;
      /** The registry the link names, when it names one. */
      registry?: string;
      /** The link names a registry other than the one the app uses. */
      otherRegistry: boolean;
    }
  | {
      kind: 'config';
      /** The name the link asks for. */
      requestedName: string;
      /** The name it would be added as: the requested one, or a free one when that is taken. */
      entryName: string;
      /** A server of the requested name exists already. */
      clash: boolean;
      review: EntryReview;
      /** The variables (or headers) whose values go to the secret store, by name. */
      secrets: string[];
    };
