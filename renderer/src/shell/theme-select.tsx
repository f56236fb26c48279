// The theme switch at the foot of the navigation: System, Light or Dark.

import { useState } from 'react';
import { applyTheme, storedTheme, themeChoices, type ThemeChoice } from './theme.js';

const labels: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

export function ThemeSelect() {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  return (
    <select
      className="theme-select"
      aria-label="Theme"
      value={choice}
      onChange={(event) => {
        const next = event.target.value as ThemeChoice;
        applyTheme(next);
        setChoice(next);
      }}
    >
      {themeChoices.map((option) => (
        <option key={option} value={option}>
          {labels[option]}
        </option>
      ))}
    </select>
  );
}
