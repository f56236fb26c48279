// Whether any of these values differs from the last render's, for state that follows a prop (a title being edited
// that the list renamed, fields that belong to one conversation). The caller resets its state during the render
// that sees the change, as React recommends, rather than in an effect that paints the stale state first.

import { useState } from 'react';

export function useChanged(...values: unknown[]): boolean {
  const [seen, setSeen] = useState(values);
  if (seen.length === values.length && seen.every((value, index) => Object.is(value, values[index]))) return false;
  setSeen(values);
  return true;
}
