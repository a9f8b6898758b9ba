import { Flame, Menu, X } from "lucide-react";
import { useState } from "react";
import { Link, NavLink } from "react-router";
import type { CurrentUser } from "../lib/current-user.ts";
import { ModalDialog } from "./modal-dialog.tsx";

interface NavItem {
  to: string;
  label: string;
}

function navItems(user: CurrentUser | null): NavItem[] {
  return [
    { to: "/", label: "Home" },
    { to: "/poetry", label: "Poetry" },
    { to: "/ember", label: "Daily Ember" },
    { to: "/books", label: "Books" },
    { to: "/journal", label: user ? "Journal" : "Journal (local)" },
    { to: "/guest-voices", label: "Guest Voices" },
    ...(user?.role === "ADMIN" ? [{ to: "/admin", label: "Admin" }] : []),
  ];
}

/** Sign-in and sign-out are full-page navigations to the API (SPEC.md §2, §7). */
function SessionButton({ user, className }: { user: CurrentUser | null; className: string }) {
  return user ? (
    <a href="/api/logout" className={className}>
      Logout
    </a>
  ) : (
    <a href="/api/login" className={className}>
      Login
    </a>
  );
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-2 py-1 hover:text-ember-700 ${isActive ? "text-ember-700 font-semibold" : ""}`;
const buttonClass =
  "rounded-full border border-ember-700 px-4 py-1.5 text-sm font-medium text-ember-800 hover:bg-ember-700 hover:text-white";

export function SiteHeader({ siteName, user }: { siteName: string; user: CurrentUser | null }) {
  const [isMenuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);
  const items = navItems(user);
  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-paper/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 font-serif text-xl text-stone-900">
          <Flame aria-hidden="true" className="h-5 w-5 text-ember-700" />
          {siteName}
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 text-sm lg:flex">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.to === "/"} className={linkClass}>
              {item.label}
            </NavLink>
          ))}
          <SessionButton user={user} className={`${buttonClass} ml-3`} />
        </nav>
        <button
          type="button"
          onClick={() => setMenuOpen(true)}
          className="rounded p-2 text-stone-800 hover:bg-stone-100 lg:hidden"
          aria-label="Open menu"
          aria-haspopup="dialog"
        >
          <Menu aria-hidden="true" className="h-6 w-6" />
        </button>
        {isMenuOpen && (
          <ModalDialog
            title={siteName}
            description="Site navigation"
            onClose={closeMenu}
            backdropTestId="menu-backdrop"
            backdropClassName="bg-black/50 motion-safe:animate-fade-in"
            panelClassName="fixed inset-y-0 right-0 flex w-72 max-w-[85vw] flex-col gap-2 bg-paper p-6 shadow-xl"
            titleClassName="font-serif text-lg"
            descriptionClassName="sr-only"
            headerAction={
              <button
                type="button"
                onClick={closeMenu}
                className="rounded p-2 hover:bg-stone-100"
                aria-label="Close menu"
              >
                <X aria-hidden="true" className="h-5 w-5" />
              </button>
            }
          >
            <nav aria-label="Mobile" className="mt-4 flex flex-col gap-1 text-base">
              {items.map((item) => (
                <NavLink
                  key={item.to}
                  to={item.to}
                  end={item.to === "/"}
                  className={linkClass}
                  onClick={closeMenu}
                >
                  {item.label}
                </NavLink>
              ))}
            </nav>
            <SessionButton user={user} className={`${buttonClass} mt-4 text-center`} />
          </ModalDialog>
        )}
      </div>
    </header>
  );
}
