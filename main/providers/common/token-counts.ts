// The usage block of every provider's answers: token counts under that provider's names, each one lenient (a
// count a server leaves out or sends as null is simply unknown), unknown fields tolerated.

import { z } from 'zod';

/** One token count as a server reports it: a non-negative number, or absent, or null. */
export const tokenCount = z.number().nonnegative().nullish();

/** A lenient object of token counts under the given names. */
export function tokenCountsSchema<const Name extends string>(...names: Name[]) {
  const shape = Object.fromEntries(names.map((name) => [name, tokenCount])) as Record<Name, typeof tokenCount>;
  return z.looseObject(shape);
}
