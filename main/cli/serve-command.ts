import type { Command } from 'commander';
import { dataDirOption, parseIntegerOption, type CommandContext } from './program.js';

export const defaultPort = 7420;
const shutdownGraceMs = 10_000;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

export function registerServeCommand(program: Command, context: CommandContext): void {
  const { output } = context;
  program
    .command('serve')
    .description('run the gateway (and, later, the browser UI) until interrupted')
    .option('--host <host>', 'address to bind; anything but loopback exposes the gateway to your network', '127.0.0.1')
    .option('--port <port>', `port to listen on (0 picks a free one)`, parseIntegerOption(0, 65535), defaultPort)
    .addOption(dataDirOption())
    .action(async (options: { host: string; port: number; dataDir?: string }) => {
      const app = context.openApp(options.dataDir);
      try {
        await app.secrets(); // at start, so a keychain fallback warning shows now and not on the first request
        if (!isLoopback(options.host)) {
          output.err(
            `warning: listening on ${options.host} makes the gateway reachable from other machines; every request still needs an API key.`,
          );
        }
        const gateway = app.createGateway();
        const baseUrl = await gateway.listen({ host: options.host, port: options.port }).catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EADDRINUSE') throw new Error(`Port ${options.port} is in use: choose another with --port.`);
          if (code === 'EADDRNOTAVAIL') throw new Error(`Cannot bind to ${options.host}: no such local address.`);
          throw error;
        });
        output.out(`Switchyard gateway listening at ${baseUrl}`);
        await app.mcp.start(); // launches the MCP servers without waiting for their handshakes
        output.err(`Data: ${app.dataDir}. Press Ctrl+C to stop.`);
        await new Promise<void>((resolve) => {
          let stopping = false;
          const stop = (signal: NodeJS.Signals) => {
            if (stopping) {
              output.err(`${signal} again: exiting without waiting.`);
              process.exit(1);
            }
            stopping = true;
            output.err(`${signal}: finishing in-flight requests (up to ${shutdownGraceMs / 1000} s)…`);
            gateway.close(shutdownGraceMs).then(resolve, resolve);
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
      } finally {
        await app.close();
      }
      output.err('Stopped.');
    });
}
