// A button that shows only an icon, as every toolbar and row of actions draws it: its label is its accessible name
// (a title, where one is given, its tooltip).

import type { ComponentProps } from 'react';

type IconButtonProps = Omit<ComponentProps<'button'>, 'type' | 'className' | 'aria-label'> & {
  /** What the button does, in words: its accessible name. */
  label: string;
};

export function IconButton({ label, ...button }: IconButtonProps) {
  return <button type="button" className="icon-button" aria-label={label} {...button} />;
}
