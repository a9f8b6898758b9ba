import { Link } from "react-router";
import { adminMeta, useAdminDoor } from "../lib/admin-access.ts";
import { appContext } from "../lib/app-context.ts";
import type { Route } from "./+types/admin";

export function loader({ context }: Route.LoaderArgs) {
  return { isAdmin: context.get(appContext).actor?.role === "ADMIN" };
}

export const meta = () => adminMeta("Content Management");

export default function Admin({ loaderData }: Route.ComponentProps) {
  useAdminDoor(loaderData.isAdmin, "content");
  if (!loaderData.isAdmin) return null;
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="font-serif text-3xl">Content Management</h1>
      <p className="mt-4">
        <Link to="/admin/digest" className="text-ember-700 underline underline-offset-4">
          Digest Admin
        </Link>
      </p>
    </section>
  );
}
