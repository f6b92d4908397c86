/** `sluice serve` over stdio: one connection, on this process's standard input and output. */
import type { Readable, Writable } from "node:stream";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { PlanServer } from "./server.js";

/** A running stdio server. */
export interface StdioServing {
  /** Resolves when the client closes standard input (or {@link StdioServing.close} is called). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves `server` on `stdin`/`stdout` (the process's own by default). */
export function serveOverStdio(server: PlanServer, streams: { stdin?: Readable; stdout?: Writable } = {}): StdioServing {
  const stdin = streams.stdin ?? process.stdin;
  const handle = serveStdio(server.factory, { transport: new StdioServerTransport(stdin, streams.stdout ?? process.stdout) });
  let close: Promise<void> | undefined;
  const shut = (): Promise<void> => {
    close ??= (async () => {
      server.close();
      await handle.close();
    })();
    return close;
  };
  const closed = new Promise<void>((resolve) => {
    stdin.once("end", () => void shut().then(resolve));
    stdin.once("close", () => void shut().then(resolve));
  });
  return { closed, close: () => shut() };
}
