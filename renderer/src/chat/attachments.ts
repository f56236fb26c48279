// Images the user attaches, read into data URLs within the limits main enforces.

import { acceptedImageTypes, maxImageBytes, maxImagesPerMessage } from '../../../shared/bridge/limits.js';

export interface Attachment {
  name: string;
  dataUrl: string;
}

export async function readAttachments(
  files: File[],
  already: number,
): Promise<{ attachments: Attachment[]; problem: string | null }> {
  const attachments: Attachment[] = [];
  let problem: string | null = null;
  for (const file of files) {
    if (!(acceptedImageTypes as readonly string[]).includes(file.type)) {
      problem = `${file.name} is not a PNG, JPEG, GIF or WebP image.`;
    } else if (file.size > maxImageBytes) {
      problem = `${file.name} is larger than ${maxImageBytes / 1024 / 1024} MiB.`;
    } else if (already + attachments.length >= maxImagesPerMessage) {
      problem = `At most ${maxImagesPerMessage} images per message.`;
    } else {
      attachments.push({ name: file.name || 'pasted image', dataUrl: await readDataUrl(file) });
    }
  }
  return { attachments, problem };
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`Cannot read ${file.name}.`));
    reader.readAsDataURL(file);
  });
}
