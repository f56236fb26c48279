// The colour theme: the system's (the default), light or dark. The choice is kept in this browser's (or the
// desktop app's) local storage and applied as `data-theme` on <html>, which sets `color-scheme`; every colour of
// theme.css is light-dark(…) of that scheme.

export const themeChoices = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof themeChoices)[number];

const storageKey = 'switchyard-theme';

export function storedTheme(): ThemeChoice {
  try {
    const stored = localStorage.getItem(storageKey);
    return themeChoices.find((choice) => choice === stored) ?? 'system';
  } catch {
    return 'system'; // storage refused (a private window): the system's theme
  }
}

/** Shows the theme at once and remembers it. */
export function applyTheme(choice: ThemeChoice, remember = true): void {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', choice);
  if (!remember) return;
  try {
    localStorage.setItem(storageKey, choice);
  } catch {
    // Not remembered; it still applies to this page.
  }
}
