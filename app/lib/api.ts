import type { z } from "zod/mini";
import { ECHO_COUNTS_PATH, readEchoCounts } from "../../common/echo-counts.ts";
import type { Endpoint, endpoints } from "../../common/endpoints.ts";
import { fillPath, type PathParams } from "../../common/path-builder.ts";

type Endpoints = typeof endpoints;
/** A call named by its key in common/endpoints.ts: "listEchoCounts". */
export type EndpointName = keyof Endpoints;

type Contract = typeof import("./api-contract.ts");
let contract: Contract | undefined;

/**
 * The contract (every call's schemas, and zod to decode with them) is a file of its own that a
 * page fetches with its first call, not with the page: most reader pages make none until the
 * reader acts (docs/decisions/031-the-contract-loads-with-the-first-call.md).
 */
async function loadContract(): Promise<Contract> {
  contract ??= await import("./api-contract.ts");
  return contract;
}

/**
 * Reads a page makes as it mounts, decoded without the contract so that the page does not fetch
 * it (docs/decisions/030-echo-counts-without-the-contract.md): the call's path, and a reader that
 * decodes its answer as the call's schema does (undefined where the schema refuses it).
 * TypeScript holds each entry to its description: a GET, its path, its answer's type.
 */
const readsWithoutContract: {
  [N in EndpointName]?: Endpoints[N]["method"] extends "GET"
    ? {
        path: Endpoints[N]["path"];
        read: (json: unknown) => z.output<Endpoints[N]["answer"]> | undefined;
      }
    : never;
} = {
  listEchoCounts: { path: ECHO_COUNTS_PATH, read: readEchoCounts },
};

/**
 * The client's one way to call /api (docs/product/api.md): the call's description from common/endpoints.ts, its path
 * parameters, body and query typed by it, credentials always included, and the answer decoded
 * with the schema the server encoded it with (Dates come back as Dates). A failed call is an
 * ApiError; an answer its schema refuses never reaches a component. Reader code names the call
 * (`callApi("toggleEcho", …)`), so it loads the contract only when it calls; admin code, which
 * holds the descriptions already, may pass one (`callApi(endpoints.updatePoem, …)`).
 */
export function callApi<N extends EndpointName>(
  name: N,
  ...[request]: CallArgs<Endpoints[N]>
): Promise<z.output<Endpoints[N]["answer"]>>;
export function callApi<E extends Endpoint>(
  endpoint: E,
  ...[request]: CallArgs<E>
): Promise<z.output<E["answer"]>>;
export async function callApi(named: Endpoint | EndpointName, request?: unknown): Promise<unknown> {
  const withoutContract = typeof named === "string" ? readsWithoutContract[named] : undefined;
  if (withoutContract) {
    const json = await send("GET", withoutContract.path, request);
    const decoded = withoutContract.read(json);
    if (decoded === undefined) throw answerMismatch("GET", withoutContract.path);
    return decoded;
  }
  const { endpoints, decodeAnswer } = await loadContract();
  const endpoint: Endpoint = typeof named === "string" ? endpoints[named] : named;
  const json = await send(endpoint.method, endpoint.path, request);
  const decoded = decodeAnswer(endpoint.answer, json);
  if (!decoded.success) throw answerMismatch(endpoint.method, endpoint.path, decoded.error);
  return decoded.data;
}

/** Sends one call and reads its JSON (undefined for a 204); a failed call is an ApiError. */
async function send(method: Endpoint["method"], pathPattern: string, request: unknown) {
  const { params, body, query } = (request ?? {}) as {
    params?: Record<string, string | number>;
    body?: unknown;
    query?: Record<string, string | undefined>;
  };
  const path = fillPath(pathPattern, params ?? {});
  const search = new URLSearchParams(
    Object.entries(query ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  ).toString();
  const response = await fetch(search ? `${path}?${search}` : path, {
    method,
    credentials: "include",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new ApiError(response.status, await response.text(), response.statusText);
  }
  return response.status === 204 ? undefined : ((await response.json()) as unknown);
}

/** An answer its schema refuses: logged where a developer looks, and thrown. */
function answerMismatch(method: string, path: string, cause?: unknown): Error {
  const mismatch = new Error(`The answer to ${method} ${path} does not match its schema`, {
    cause,
  });
  console.error(mismatch);
  return mismatch;
}

/** What a call needs besides its description: path parameters, JSON body, query. */
export type CallRequest<E extends Endpoint> = ([PathParams<E["path"]>] extends [never]
  ? unknown
  : { params: Record<PathParams<E["path"]>, string | number> }) &
  (E extends { body: infer Body extends z.ZodMiniType } ? { body: z.input<Body> } : unknown) &
  (E extends { query: infer Query extends z.ZodMiniType } ? { query?: z.input<Query> } : unknown);

/** The request argument, optional when the call needs nothing. */
export type CallArgs<E extends Endpoint> =
  Record<never, never> extends CallRequest<E>
    ? [request?: CallRequest<E>]
    : [request: CallRequest<E>];

/**
 * A call that failed (docs/product/api.md, Errors): its message is '{status}: {body or status text}', and the server's
 * `{message, errors}` (common/schemas/answer.ts) is at hand for toasts and forms, read with the
 * contract the failed call loaded.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, statusText: string) {
    super(`${status}: ${body || statusText}`);
    this.status = status;
    this.body = body;
  }

  private get answer() {
    try {
      const parsed = contract?.errorAnswer.safeParse(JSON.parse(this.body));
      return parsed?.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** The server's `{message}`, for toasts that show it. */
  get serverMessage(): string | undefined {
    return this.answer?.message;
  }

  /** The schema's messages per field, for the form that sent the call. */
  get fieldErrors(): Record<string, string[]> {
    return this.answer?.errors ?? {};
  }
}
