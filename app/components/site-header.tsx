import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation, useSearchParams } from "react-router";
import { SEARCH_QUERY_MAX_LENGTH } from "../../common/constants.ts";
import * as pages from "../../common/pages.ts";
import type { Audience } from "../../common/session.ts";
import { signInAddress } from "../lib/sign-in.ts";
import { Flame, Menu, Search, X } from "./icons.ts";

/**
 * The small-screen menu's dialog comes with the first press of 'Open menu' (or as the pointer
 * or focus reaches it), so no page fetches it before a reader asks for the menu
 * (docs/decisions/030-echo-counts-without-the-contract.md).
 */
const loadModalDialog = () => import("./modal-dialog.tsx");
const ModalDialog = lazy(() =>
  loadModalDialog().then(({ ModalDialog }) => ({ default: ModalDialog })),
);

interface NavItem {
  to: string;
  label: string;
}

function navItems(audience: Audience): NavItem[] {
  return [
    { to: "/", label: "Home" },
    { to: pages.poetry, label: "Poetry" },
    { to: pages.ember, label: "Daily Ember" },
    { to: pages.books, label: "Books" },
    { to: pages.journal, label: audience === "anonymous" ? "Journal (local)" : "Journal" },
    { to: pages.guestVoices, label: "Guest Voices" },
    ...(audience === "admin" ? [{ to: pages.admin, label: "Admin" }] : []),
  ];
}

/** Sign-in and sign-out are full-page navigations to the API (docs/product/accounts.md). */
function SessionButton({ audience, className }: { audience: Audience; className: string }) {
  return audience !== "anonymous" ? (
    <a href="/api/logout" className={className}>
      Logout
    </a>
  ) : (
    <a
      href="/api/login"
      // Asked at the click, so the stanza the reader has moved to since the page loaded comes too.
      onClick={(event) => {
        event.currentTarget.href = signInAddress();
      }}
      className={className}
    >
      Login
    </a>
  );
}

/**
 * The reader's own page (name, avatar, export, leaving), beside Logout for a signed-in reader:
 * with the session's controls, not among the site's sections in the navigation list.
 */
function AccountLink({
  className,
  onClick,
}: {
  className: (state: { isActive: boolean }) => string;
  onClick?: () => void;
}) {
  return (
    <NavLink to={pages.account} className={className} onClick={onClick}>
      Account
    </NavLink>
  );
}

/** Keys typed into these go to them: '/' is the reader's text there, not a shortcut. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * On wide screens '/' puts the caret in the search field, unless the reader is typing in a field;
 * on small screens the field is behind the search icon and the key does nothing.
 */
function useSlashToSearch(field: React.RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      const input = field.current;
      // Hidden (display: none below the wide layout) fields have no offsetParent.
      if (!input || input.offsetParent === null) return;
      event.preventDefault();
      input.focus();
      input.select();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [field]);
}

/**
 * The search field: a GET form to /search, so it works before the scripts arrive. On /search it
 * holds the words searched for.
 */
function SearchForm({
  id,
  className,
  field,
  autoFocus = false,
}: {
  id: string;
  className: string;
  field?: React.RefObject<HTMLInputElement | null>;
  autoFocus?: boolean;
}) {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const q = pathname === pages.search ? (searchParams.get("q") ?? "") : "";
  return (
    <Form method="get" action={pages.search} role="search" className={className}>
      <label htmlFor={id} className="sr-only">
        Search poems, embers and guest voices
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-stone-500"
      />
      <input
        // A new search page shows its own words, also after back and forward.
        key={q}
        ref={field}
        id={id}
        name="q"
        type="search"
        defaultValue={q}
        maxLength={SEARCH_QUERY_MAX_LENGTH}
        placeholder="Search"
        // biome-ignore lint/a11y/noAutofocus: the reader just pressed the search icon to type here
        autoFocus={autoFocus}
        enterKeyHint="search"
        className="w-full rounded-full border border-stone-300 bg-white py-1.5 pr-3 pl-9 text-sm text-stone-900 placeholder:text-stone-500 focus:border-ember-700"
      />
    </Form>
  );
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-2 py-1 hover:text-ember-700 ${isActive ? "text-ember-700 font-semibold" : ""}`;
const buttonClass =
  "rounded-full border border-ember-700 px-4 py-1.5 text-sm font-medium text-ember-800 hover:bg-ember-700 hover:text-white";

export function SiteHeader({ siteName, audience }: { siteName: string; audience: Audience }) {
  const [isMenuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);
  const { pathname } = useLocation();
  // On /search the small-screen field is open, holding the words the results are for; leaving
  // the results closes it.
  const [isSearchOpen, setSearchOpen] = useState(pathname === pages.search);
  useEffect(() => setSearchOpen(pathname === pages.search), [pathname]);
  const wideSearchField = useRef<HTMLInputElement>(null);
  useSlashToSearch(wideSearchField);
  const items = navItems(audience);
  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-paper/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-2 font-serif text-xl text-stone-900">
          <Flame aria-hidden="true" className="h-5 w-5 text-ember-700" />
          {siteName}
        </Link>
        <SearchForm
          id="site-search"
          field={wideSearchField}
          className="relative hidden w-56 lg:block"
        />
        <nav aria-label="Main" className="hidden items-center gap-1 text-sm lg:flex">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.to === "/"} className={linkClass}>
              {item.label}
            </NavLink>
          ))}
          {audience !== "anonymous" && <AccountLink className={linkClass} />}
          <SessionButton audience={audience} className={`${buttonClass} ml-3`} />
        </nav>
        <div className="flex items-center gap-1 lg:hidden">
          <button
            type="button"
            onClick={() => setSearchOpen(!isSearchOpen)}
            className="rounded p-2 text-stone-800 hover:bg-stone-100"
            aria-label={isSearchOpen ? "Close search" : "Open search"}
            aria-expanded={isSearchOpen}
            aria-controls="site-search-row"
          >
            <Search aria-hidden="true" className="h-6 w-6" />
          </button>
          <button
            type="button"
            onClick={() => setMenuOpen(true)}
            onPointerEnter={loadModalDialog}
            onFocus={loadModalDialog}
            className="rounded p-2 text-stone-800 hover:bg-stone-100"
            aria-label="Open menu"
            aria-haspopup="dialog"
          >
            <Menu aria-hidden="true" className="h-6 w-6" />
          </button>
        </div>
        {isMenuOpen && (
          <Suspense fallback={null}>
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
              {audience !== "anonymous" && (
                <div className="mt-4 border-t border-stone-200 pt-4 text-base">
                  <AccountLink className={linkClass} onClick={closeMenu} />
                </div>
              )}
              <SessionButton audience={audience} className={`${buttonClass} mt-4 text-center`} />
            </ModalDialog>
          </Suspense>
        )}
      </div>
      {isSearchOpen && (
        <div id="site-search-row" className="mx-auto max-w-6xl px-4 pb-3 lg:hidden">
          <SearchForm
            id="site-search-small"
            className="relative"
            autoFocus={pathname !== pages.search}
          />
        </div>
      )}
    </header>
  );
}
