// Saves text as a file the way a web page does (a link with `download`): the browser's download, and in the
// desktop app Electron's, which asks where to save it.

export function downloadFile(fileName: string, text: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mimeType};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked later, not at once: the download reads the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
