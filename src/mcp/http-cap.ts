/**
 * A bound on what an MCP server sends over Streamable HTTP. The SDK reads an answer whole
 * before sluice sees it (a 600 MB answer is read until the call times out), so the bound is
 * put on the bytes as they arrive: a `fetch` whose response bodies fail once one message (a
 * JSON body, or one event of an SSE stream) passes the limit.
 */

/** The fetch the SDK's HTTP transport is given. */
export type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Bytes after the last blank line (the end of an SSE event) in `chunk`, or -1 when it has none. */
function afterLastEvent(chunk: Uint8Array): number {
  for (let i = chunk.length - 1; i > 0; i--) {
    if (chunk[i] === 10 && (chunk[i - 1] === 10 || (i > 2 && chunk[i - 1] === 13 && chunk[i - 2] === 10))) return chunk.length - 1 - i;
  }
  return -1;
}

/**
 * `fetch`, with each response body cut off with an error once a message passes `maxBytes`;
 * `onOversize` is told the error's message, so the call that was waiting can say it.
 */
export function cappedFetch(maxBytes: number, tooLarge: () => string, onOversize: (message: string) => void, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    const res = await base(url, init);
    if (res.body === null) return res;
    const stream = (res.headers.get("content-type") ?? "").includes("text/event-stream");
    let pending = 0;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const tail = stream ? afterLastEvent(chunk) : -1;
          pending = tail === -1 ? pending + chunk.byteLength : tail;
          if (pending > maxBytes) {
            const message = tooLarge();
            onOversize(message);
            controller.error(new Error(message));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
