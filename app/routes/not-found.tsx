import { data } from "react-router";
import { NotFound } from "../root.tsx";

/** Any path no other route claims: the '404 Page Not Found' page with HTTP status 404. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
