import { Link } from "react-router";
import { COPYRIGHT_YEAR } from "../../common/constants.ts";
import { SubscribeForm } from "./subscribe-form.tsx";

const footerLinks = [
  { to: "/", label: "Home" },
  { to: "/poetry", label: "Poetry" },
  { to: "/ember", label: "Daily Embers" },
  { to: "/books", label: "Books" },
];

/**
 * The specification's footer links stay as they are in their own list; links it does not name go
 * on a second line below them (the signed-in reader's Account).
 */
export function SiteFooter({ siteName, isSignedIn }: { siteName: string; isSignedIn: boolean }) {
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
      {isSignedIn && (
        <p className="pb-4 text-center text-sm">
          <Link to="/account" className="text-stone-700 underline hover:text-ember-700">
            Account
          </Link>
        </p>
      )}
      <p className="pb-8 text-center text-xs text-stone-600">
        © {COPYRIGHT_YEAR} {siteName}. All rights reserved.
      </p>
    </footer>
  );
}
