import { type Context, type Env, Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod/mini";
import { type Endpoint, unreadBody } from "../../common/endpoints.ts";
import type { OtherRoute } from "../../common/other-routes.ts";
import type { PathParams } from "../../common/path-builder.ts";
import { sendAnswer } from "./answer.ts";
import { parseInput, readJsonBody } from "./json-body.ts";

/**
 * What a JSON call's handler receives: its path parameters (checked by the call's `params` schema,
 * else as written), its query and its JSON body, each read with the call's own schema.
 */
export type CallInput<E extends Endpoint> = {
  params: E extends { params: infer Params extends z.ZodMiniType }
    ? z.output<Params>
    : Record<PathParams<E["path"]>, string>;
} & (E extends { query: infer Query extends z.ZodMiniType }
  ? { query: z.output<Query> }
  : unknown) &
  (E extends { body: infer Body extends z.ZodMiniType }
    ? [Body] extends [typeof unreadBody]
      ? [typeof unreadBody] extends [Body]
        ? unknown
        : { body: z.output<Body> }
      : { body: z.output<Body> }
    : unknown);

/**
 * A JSON call's handler: given its input, it returns the value its answer schema encodes, or
 * nothing for a call answered 204.
 */
export type CallHandler<E extends Endpoint, V extends Env> = E extends { status: 204 }
  ? (input: CallInput<E>, c: Context<V>) => Promise<void> | void
  : (input: CallInput<E>, c: Context<V>) => z.output<E["answer"]> | Promise<z.output<E["answer"]>>;

/**
 * A router whose routes are registered from their declarations (common/endpoints.ts,
 * common/other-routes.ts), so no method or path is written in a feature's routes (decision 036):
 *
 *   routesAt<AppEnv>(mounts.api)
 *     .call(endpoints.getPoem, sharedRead, ({ params }, c) => poems.getPoem(c.get("audience"), params.slug))
 *     .route(otherRoutes.logout, (c) => …a Response…)
 *     .router
 *
 * `mountedAt` is where the router is mounted (`app.route("/api", …)`): each declared path must
 * lie under it, and is registered relative to it. Middleware goes between the declaration and
 * the handler, as in Hono's own `.get(path, middleware, handler)`, and stays in Hono's route list,
 * where the page cache finds `sharedRead` and `anonymousRead`.
 */
export function routesAt<V extends Env>(mountedAt: "/" | `/${string}`) {
  const router = new Hono<V>();
  const prefix = mountedAt === "/" ? "" : mountedAt;
  const relativePath = ({ method, path }: Endpoint | OtherRoute) => {
    if (!path.startsWith(`${prefix}/`)) {
      throw new Error(`${method} ${path} is declared outside ${mountedAt}, where it is mounted`);
    }
    return path.slice(prefix.length);
  };
  const register = (declared: Endpoint | OtherRoute, handlers: MiddlewareHandler<V>[]) => {
    const [first, ...rest] = handlers;
    if (!first) throw new Error(`${declared.method} ${declared.path} has no handler`);
    router.on(declared.method, relativePath(declared), first, ...rest);
  };
  const routes = {
    router,
    /**
     * A JSON call: its input read and checked with the call's schemas before the handler runs
     * (400 with the schema's messages), and the handler's value sent through the answer schema
     * with the call's status.
     */
    call<E extends Endpoint>(
      endpoint: E,
      ...handlers: [...MiddlewareHandler<V>[], CallHandler<E, V>]
    ) {
      const handler = handlers.at(-1) as CallHandler<E, V>;
      const middleware = handlers.slice(0, -1) as MiddlewareHandler<V>[];
      register(endpoint, [...middleware, callHandler(endpoint, handler)]);
      return routes;
    },
    /**
     * A route whose handler reads its request and makes its Response itself: a redirect, a form
     * post, a file, or a JSON call that chooses its own status or also takes a form (it then
     * answers with `answer(c, endpoint, value)`).
     */
    route<R extends OtherRoute | Endpoint>(
      declared: R,
      ...handlers: [
        ...MiddlewareHandler<V>[],
        (c: Context<V, R["path"]>) => Response | Promise<Response>,
      ]
    ) {
      register(declared, handlers as MiddlewareHandler<V>[]);
      return routes;
    },
  };
  return routes;
}

/**
 * The Hono handler of a JSON call. What to read is decided here, once, from the declaration, so a
 * request does no more than the handlers written by hand did: parse what is declared, call, send.
 */
function callHandler<E extends Endpoint, V extends Env>(
  endpoint: E,
  handler: CallHandler<E, V>,
): MiddlewareHandler<V> {
  const { params, query } = endpoint;
  const body = endpoint.body === unreadBody ? undefined : endpoint.body;
  const hasPathParams = endpoint.path.includes("/:");
  return async (c) => {
    const input: { params?: unknown; query?: unknown; body?: unknown } = {};
    if (params) input.params = parseInput(params, c.req.param());
    else if (hasPathParams) input.params = c.req.param();
    if (query) input.query = parseInput(query, c.req.query());
    if (body) input.body = await readJsonBody(c, body);
    const call = handler as (input: CallInput<E>, c: Context<V>) => unknown;
    const value = (await call(input as CallInput<E>, c)) as z.output<E["answer"]>;
    return sendAnswer(c, endpoint, value);
  };
}
