import { Link } from "react-router";
import * as pages from "../../common/pages.ts";
import { ACCOUNT_LINK, FOOTER_SECOND_LINE, FooterSecondLine } from "./footer-second-line.tsx";
import { SubscribeForm } from "./subscribe-form.tsx";

const footerLinks = [
  { to: "/", label: "Home" },
  { to: pages.poetry, label: "Poetry" },
  { to: pages.ember, label: "Daily Embers" },
  { to: pages.books, label: "Books" },
];

/**
 * The footer: its own links and the subscribe form, then the second line (with the signed-in
 * reader's Account) and the copyright line.
 */
export function SiteFooter({
  copyright,
  isSignedIn,
  fediverseHandle = null,
}: {
  copyright: string;
  isSignedIn: boolean;
  /** `@poet@host` while the site federates (FEDIVERSE), else null. */
  fediverseHandle?: string | null;
}) {
  return (
    <footer className="mt-16 border-t border-stone-200 bg-stone-100">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-2">
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {footerLinks.map((link) => (
            <Link key={link.to} to={link.to} className="text-stone-700 hover:text-ember-700">
              {link.label}
            </Link>
          ))}
        </nav>
        <SubscribeForm />
      </div>
      <FooterSecondLine
        links={isSignedIn ? [...FOOTER_SECOND_LINE, ACCOUNT_LINK] : FOOTER_SECOND_LINE}
        fediverseHandle={fediverseHandle}
      />
      <p className="pb-8 text-center text-xs text-stone-600">{copyright}</p>
    </footer>
  );
}
