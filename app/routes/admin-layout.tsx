import { Outlet, redirect } from "react-router";
import { adminDoorRedirect } from "../lib/admin-access.ts";
import { adminContext, appContext } from "../lib/app-context.ts";
import type { Route } from "./+types/admin-layout";

/**
 * Every admin page sits under this layout. Its middleware runs before any loader below it: a
 * non-admin is sent home (with the notice of the door they knocked at) and no admin loader runs;
 * an admin's loaders get the guard's AdminActor from `adminContext`, the one thing admin services
 * accept. The server's admin guard made it (`admin` in the load context, server/app.ts).
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    const { admin } = context.get(appContext);
    if (!admin) throw redirect(adminDoorRedirect(new URL(request.url).pathname));
    context.set(adminContext, admin);
  },
];

export default function AdminLayout() {
  return <Outlet />;
}
