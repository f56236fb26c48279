// What main and the UI say to each other about the MCP Registry: a search result, the values an install takes, and
// what an install would write. Types only, runtime-neutral: main plans with them (main/mcp/registry), the Discover
// view shows them.

import type { EntryReview } from './review-entry.js';

/** How a package or remote runs, as the results show it. */
export type RunsWith = 'npx' | 'uvx' | 'docker' | 'remote' | 'mcpb' | 'dnx' | 'other';

/** One value the person gives: an environment variable, an argument, a header, or a variable inside one. */
export interface InstallInput {
  /** What `--env`, `--arg` or `--header` names (NAME=VALUE), and the form's field. */
  key: string;
  kind: 'env' | 'arg' | 'header';
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  placeholder?: string;
  choices?: string[];
  /** `string`, `number`, `boolean` or `filepath`. */
  format?: string;
}

/** One server of a registry search, with what this machine has installed of it. */
export interface RegistrySearchResult {
  name: string;
  description: string;
  version: string;
  runs: RunsWith[];
  needsSecrets: boolean;
  /** The entry installed from this server, and whether the registry has a newer version than it. */
  installed?: { entryName: string; version: string; updateAvailable: boolean };
}

export interface RegistrySearchPage {
  registry: string;
  servers: RegistrySearchResult[];
  /** Pass as `cursor` for the next page; absent on the last. */
  nextCursor?: string;
  /** Servers left out because their server.json is malformed, each naming the server and the field. */
  skipped: string[];
}

/** What installing one server takes: the values to ask for, and whether it updates an installed entry. */
export interface RegistryInstallForm {
  name: string;
  version: string;
  description: string;
  runsWith: RunsWith;
  entryName: string;
  inputs: InstallInput[];
  /** The installed entry's version, when this install updates it (its values are kept unless given again). */
  installedVersion?: string;
  /** Keys of inputs whose value the installed entry already has. */
  kept: string[];
}

/** What the install would write, without secret values, and what stops it. */
export interface RegistryInstallPreview {
  review: EntryReview;
  /** For an update: what changes, one line each. */
  changes: string[];
  /** Required values still missing (their keys). */
  missing: string[];
  /** The runtime is missing on this machine: what to install. */
  missingRuntime?: string;
}
