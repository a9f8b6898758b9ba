import { Outlet, redirect } from "react-router";
import { isAdmin, requireAdmin } from "../../server/services/actor.ts";
import { adminDoorRedirect } from "../lib/admin-access.ts";
import { adminContext, appContext } from "../lib/app-context.ts";
import type { Route } from "./+types/admin-layout";

/**
 * Every admin page sits under this layout. Its middleware runs before any loader below it: a
 * non-admin is sent home (with the spec's notice) and no admin loader runs; an admin's loaders
 * get the guard's AdminActor from `adminContext`, the one thing admin services accept.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    const { actor } = context.get(appContext);
    if (!isAdmin(actor)) throw redirect(adminDoorRedirect(new URL(request.url).pathname));
    context.set(adminContext, requireAdmin(actor));
  },
];

export default function AdminLayout() {
  return <Outlet />;
}
