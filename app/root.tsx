import { lazy, Suspense, useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigate,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import * as pages from "../common/pages.ts";
import type { Route } from "./+types/root";
import "./app.css";
import { copyrightLine } from "../common/site-settings.ts";
import { SiteFooter } from "./components/site-footer.tsx";
import { SiteHeader } from "./components/site-header.tsx";
import type { SkeletonKind } from "./components/skeletons.tsx";
import { Toaster } from "./components/toaster.tsx";
import { useAdminDoorNotice } from "./lib/admin-access.ts";
import { appContext } from "./lib/app-context.ts";
import { useNonce } from "./lib/nonce.tsx";
import { APPLY_SAVED_READING_SETTINGS } from "./lib/reading-settings.ts";
import { notify } from "./lib/toast.ts";
import { useAudience } from "./lib/use-current-user.ts";
import { useJournalAutoSync } from "./lib/use-journal-sync.ts";

/**
 * Runs before the first paint. It lets CSS show the JavaScript layout at once (no shift on
 * hydration), applies the reader's saved theme and text size (no flash, no shift), and it holds
 * forms that only scripts submit (no action of their own) until the page has hydrated: the
 * browser would otherwise send them as a GET to the page itself, with the reader's email or poem
 * in the address (scripts load after the first paint, decision 011).
 */
const BEFORE_HYDRATION_SCRIPT = `document.documentElement.dataset.js = "1";
if (/^#s-\\d+$/.test(location.hash)) document.documentElement.dataset.openedAtStanza = "";
${APPLY_SAVED_READING_SETTINGS}
document.addEventListener("submit", (event) => {
  if (document.documentElement.dataset.hydrated !== "true" && !event.target.hasAttribute("action")) event.preventDefault();
}, true);`;

export async function loader({ context }: Route.LoaderArgs) {
  const { site, services, audience, isDatabaseUnavailable } = context.get(appContext);
  if (isDatabaseUnavailable) throw data("Service temporarily unavailable", { status: 503 });
  const settings = await services.siteSettings.view();
  // The audience, never the person: the page is shared by everyone in it (server/http/page-cache.ts).
  return data({
    site,
    poetName: settings.poetName,
    copyright: settings.copyright,
    audience,
  });
}

/**
 * A verified=1 left by the subscription link is removed from the address bar
 * (docs/product/reading.md, After confirming a subscription).
 */
function useStripVerifiedParam() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get("verified") !== "1") return;
    // The confirmation page says so itself; elsewhere (an older link) a toast does.
    if (location.pathname !== pages.subscribeConfirmed) {
      notify("Subscription confirmed", "The weekly ember digest is on its way to you.");
    }
    params.delete("verified");
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : "", hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
  }, [location, navigate]);
}

/**
 * The head's `<link rel="expect">` holds the first paint until this element, the first after the
 * footer, is in the page. On a short page the main area grows to push the footer to the bottom,
 * so the footer's place depends on its height: a paint of a half-parsed footer (the browser
 * paints while it parses) would move it up as the rest arrives, a layout shift. Chromium unblocks
 * when the element is inserted, not when it is closed, hence an element after the footer.
 */
const LAYOUT_END_ID = "layout-end";

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const siteName = rootData?.site.name ?? "Ember Verse";
  useEffect(() => {
    // Lets browser tests (and scripts) wait until the page is interactive, error pages included.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#fbf8f3" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link
          rel="alternate"
          type="application/atom+xml"
          title={`${siteName} poems`}
          href="/feed.xml"
        />
        <script nonce={nonce} suppressHydrationWarning>
          {BEFORE_HYDRATION_SCRIPT}
        </script>
        <link rel="expect" href={`#${LAYOUT_END_ID}`} blocking="render" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col font-sans antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <SiteHeader siteName={siteName} audience={rootData?.audience ?? "anonymous"} />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
          {children}
        </main>
        <SiteFooter
          copyright={
            // Without the root's data (an error page), the line as it is before any setting.
            rootData?.copyright ??
            copyrightLine({ copyrightFrom: null, poetName: null, siteTitle: siteName }, 0)
          }
          isSignedIn={(rootData?.audience ?? "anonymous") !== "anonymous"}
          fediverseHandle={rootData?.site.fediverseHandle ?? null}
        />
        <div id={LAYOUT_END_ID} hidden />
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useStripVerifiedParam();
  useAdminDoorNotice();
  const audience = useAudience();
  const location = useLocation();
  // The journal page runs (and announces) its own sync.
  useJournalAutoSync(audience !== "anonymous" && location.pathname !== pages.journal, "sign-in");
  const navigation = useNavigation();
  const target = navigation.location?.pathname;
  // A client navigation to a poem, the ember or a book shows a skeleton while its data loads;
  // the skeletons' code comes with the first such navigation, the page staying till it is here.
  const kind = target && target !== location.pathname ? skeletonFor(target) : undefined;
  if (kind) {
    return (
      <Suspense fallback={<Outlet />}>
        <NavigationSkeleton kind={kind} />
      </Suspense>
    );
  }
  return <Outlet />;
}

const NavigationSkeleton = lazy(() =>
  import("./components/skeletons.tsx").then(({ NavigationSkeleton }) => ({
    default: NavigationSkeleton,
  })),
);

/** Which skeleton a client navigation to a path shows while its data loads. */
function skeletonFor(pathname: string): SkeletonKind | undefined {
  if (/^\/poetry\/[^/]+$/.test(pathname)) return "poem";
  if (pathname === pages.ember) return "ember";
  if (/^\/book\/[^/]+\/preview$/.test(pathname)) return "book";
  return undefined;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFound />;
  }
  const isUnavailable = isRouteErrorResponse(error) && error.status === 503;
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="font-serif text-3xl">
        {isUnavailable ? "We'll be right back" : "Something went wrong"}
      </h1>
      <p className="mt-4 text-stone-700">
        {isUnavailable
          ? "The site is briefly unavailable. Please try again in a moment."
          : "This page could not be shown. Please try again."}
      </p>
    </section>
  );
}

export function NotFound() {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <title>404 Page Not Found</title>
      <h1 className="font-serif text-3xl">404 Page Not Found</h1>
      <p className="mt-4 text-stone-700">There is nothing at this address.</p>
      <a href="/" className="mt-6 inline-block text-ember-700 underline">
        Return Home
      </a>
    </section>
  );
}
