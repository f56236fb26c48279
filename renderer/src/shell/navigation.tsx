// Going to another screen from inside one (a chat error's "Add credits" opens Activity). The shell owns which
// screen shows; screens get this function and know screens only by their ids (screens.ts).

import { createContext, useContext } from 'react';

const NavigationContext = createContext<(screenId: string) => void>(() => undefined);

export const NavigationProvider = NavigationContext.Provider;

export function useGoToScreen(): (screenId: string) => void {
  return useContext(NavigationContext);
}
