// The port `switchyard serve` and the desktop app listen on when not told otherwise.
export const defaultPort = 7420;
