// The gateway's own thought signatures on the Gemini API. In Google's API a thoughtSignature is bytes, written in JSON
// as base64, and clients read it so: the google-genai Python SDK decodes it and refuses the whole response when it is
// not base64. A translated answer's signature carries its reasoning details (reasoning-carrier.ts: `sy1.` and base64url
// JSON, whose `.` is no base64), so it goes out as the base64 of that carrier text. The carrier is ASCII without `>`,
// `?` or `~`, so its base64 has no `+` or `/` and reads the same in the URL-safe alphabet: a client that decodes the
// bytes and encodes them again (the Python SDK writes bytes as URL-safe base64) sends the same string back. It is read
// as it went, without its padding, or as the bare carrier that earlier answers had.

import type { ReasoningDetail } from '../../../../shared/api/index.js';
import { decodeReasoningDetails, encodeReasoningDetails } from '../responses/reasoning-carrier.js';

export function encodeThoughtSignature(details: readonly ReasoningDetail[]): string {
  return Buffer.from(encodeReasoningDetails(details), 'utf8').toString('base64');
}

/** The reasoning details a signature of ours carries, or null when it is not ours (Gemini's own, say). */
export function decodeThoughtSignature(signature: string): ReasoningDetail[] | null {
  return decodeReasoningDetails(signature) ?? decodeReasoningDetails(Buffer.from(signature, 'base64').toString('utf8'));
}
