import type { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { appContext } from "./lib/app-context.ts";
import { NonceProvider } from "./lib/nonce.tsx";
import { scriptsAfterFirstPaint } from "./lib/scripts-after-paint.ts";

export const streamTimeout = 5_000;

/**
 * The load context's key, exported from the build so that the server fills the context with the
 * build's own copy of it (server/http/page-handler.ts, decision 037).
 */
export { appContext };

/**
 * Renders every page completely before sending it (onAllReady): crawlers and link-preview bots
 * get whole HTML, and the same bytes can be cached for every anonymous reader. The page is
 * collected into one string and sent whole, which costs less than passing React's small chunks
 * through a stream (decision 009); its scripts wait for the first paint (decision 011).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(appContext);

  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          // Once all is ready, pipe() writes the whole page and ends at once: a plain object
          // collects it as text, without a Writable's buffering and callbacks for each chunk.
          // React writes encoded chunks, and long strings as they are.
          const decoder = new TextDecoder();
          let html = "";
          const sink = {
            write(chunk: Uint8Array | string) {
              html += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
              return true;
            },
            end() {
              clearTimeout(timeout);
              html += decoder.decode();
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(
                new Response(scriptsAfterFirstPaint(html), { headers: responseHeaders, status }),
              );
            },
            on() {
              return sink;
            },
          };
          pipe(sink as unknown as Writable);
        },
        onShellError: reject,
        onError(error: unknown) {
          status = 500;
          console.error(error);
        },
      },
    );
  });
}
