import { Link } from "react-router";
import * as pages from "../../common/pages.ts";
import { FediverseHandle } from "./fediverse-handle.tsx";

/**
 * A link on the footer's second line: pages the footer's own navigation does not list (that list
 * stays the original four), such as About.
 */
export interface FooterLink {
  to: string;
  label: string;
}

/** The second line's links, in order; later pages (an account, a privacy notice) join here. */
export const FOOTER_SECOND_LINE: FooterLink[] = [
  { to: pages.about, label: "About" },
  { to: pages.privacy, label: "Privacy" },
];

/** Joins the line for a signed-in reader (their pages are cached per audience, decision 024). */
export const ACCOUNT_LINK: FooterLink = { to: pages.account, label: "Account" };

/**
 * The footer's second line, outside its navigation list, above the copyright line; with the
 * fediverse handle at its end while the site federates.
 */
export function FooterSecondLine({
  links = FOOTER_SECOND_LINE,
  fediverseHandle = null,
}: {
  links?: FooterLink[];
  fediverseHandle?: string | null;
}) {
  return (
    <nav aria-label="About this site" className="pb-3">
      <ul className="flex flex-wrap justify-center gap-x-5 gap-y-1 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className="text-stone-700 underline-offset-4 hover:text-ember-700 hover:underline"
            >
              {link.label}
            </Link>
          </li>
        ))}
        {fediverseHandle ? (
          <li>
            <FediverseHandle handle={fediverseHandle} />
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
