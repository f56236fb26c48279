// Limits the UI checks before sending and main enforces when validating (contract.ts).

export const maxImagesPerMessage = 4;
/** Of the decoded image; the data URL is about a third longer. */
export const maxImageBytes = 5 * 1024 * 1024;
export const acceptedImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const maxMessageChars = 200_000;
export const maxSystemPromptChars = 50_000;
export const maxTitleChars = 200;
/** MCP resources attached to one message, and the text of each (the message's own limit applies to what is typed). */
export const maxResourcesPerMessage = 8;
export const maxResourceChars = 100_000;
/** Stop sequences of a conversation or preset, as OpenAI allows; and the length of each. */
export const maxStopSequences = 4;
export const maxStopSequenceChars = 200;
export const maxPresetNameChars = 100;
export const maxFolderNameChars = 100;
/** A conversation file to import (its text): about 5 MB, so that one file cannot fill the app's memory. */
export const maxImportChars = 5_000_000;
/** PDFs attached to one message (sent to the model as `file` parts), each at most maxDocumentBytes decoded. */
export const maxDocumentsPerMessage = 2;
export const maxDocumentBytes = 5 * 1024 * 1024;
export const acceptedDocumentTypes = ['application/pdf'] as const;
/** Text and code files attached to one message: their text goes into the message, each up to maxTextFileChars. */
export const maxTextFilesPerMessage = 8;
export const maxTextFileChars = 100_000;
/**
 * Everything attached to one message together (decoded bytes, text counted as characters): the gateway takes
 * requests of up to 10 MiB, and base64 makes a file a third larger.
 */
export const maxAttachmentBytesPerMessage = 7 * 1024 * 1024;
/** Models one prompt is sent to side by side (chat:compare). */
export const maxComparedModels = 4;
/** An MCP bundle (.mcpb) installed from the MCP screen: its bytes cross the bridge as base64, a third longer. */
export const maxBundleBytes = 32 * 1024 * 1024;
