// `data:<mime>;base64,<data>` image URLs (spec 2.3), the form every provider accepts.

export interface DataUrl {
  mediaType: string;
  data: string;
}

const dataUrlPattern = /^data:([^;,]+)((?:;[^;,]+)*);base64,/i;

/** The media type (lower case, `image/jpg` read as `image/jpeg`) and the base64 payload; null when not a data URL. */
export function parseDataUrl(url: string): DataUrl | null {
  const header = dataUrlPattern.exec(url.slice(0, 256));
  if (!header) return null;
  let mediaType = header[1]!.trim().toLowerCase();
  if (mediaType === 'image/jpg') mediaType = 'image/jpeg';
  return { mediaType, data: url.slice(header[0].length) };
}

export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
