// What installing an MCP bundle (.mcpb) shows and asks, shared by main (main/mcp/bundles) and the MCP screen's
// bundle dialog: the bundle, its signature's state, exactly what it runs, and its user_config settings.

import type { EntryReview } from './review-entry.js';

export const bundleSettingTypes = ['string', 'number', 'boolean', 'directory', 'file'] as const;

/** One declared user_config setting, as a form or a prompt shows it. */
export interface BundleInput {
  key: string;
  type: (typeof bundleSettingTypes)[number];
  title: string;
  description?: string;
  required: boolean;
  multiple: boolean;
  sensitive: boolean;
  /** The default with its placeholders filled (`${HOME}/notes`), as text. */
  default?: string[];
  min?: number;
  max?: number;
}

export interface BundleInstallPreview {
  name: string;
  displayName: string;
  version: string;
  author: string;
  /** "Signature present, not verified" or "Not signed". */
  signature: string;
  entryName: string;
  /** Where it will be unpacked. */
  folder: string;
  /** The installed bundle's name and version when this install replaces it. */
  replaces?: string;
  review: EntryReview;
  inputs: BundleInput[];
  /** Required settings still without a value (their keys). */
  missing: string[];
  /** Values that do not fit their declared type, one sentence each. */
  problems: string[];
}
