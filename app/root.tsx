import * as Tooltip from "@radix-ui/react-tooltip";
import { lazy, Suspense, useSyncExternalStore } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { NotFoundCard } from "./components/not-found-card";
import { OrganizationJsonLd } from "./components/organization-json-ld";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { NotificationsArea } from "./components/toast/notifications-area";
import { getPublicConfig } from "./config.server";
import { deferredStartScript } from "./lib/deferred-scripts";
import { fadeGuardScript } from "./lib/loads-ahead";
import { speculationRulesJson } from "./lib/speculation-rules";

/** Our inline script that runs at load (React Router adds its scroll restoration): React waits for a person, the fade for a page loaded ahead. */
const startScript = deferredStartScript + fadeGuardScript;

// Toasts only ever follow a visitor's action, so their code loads after hydration.
const Toaster = lazy(() => import("./components/toast/toaster"));

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function loader() {
  return { config: getPublicConfig() };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const hydrated = useHydrated();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#14213d" />
        <Meta />
        <Links />
        <OrganizationJsonLd />
        {/* Prerender our pages on intent (app/lib/speculation-rules.ts); allowed by its hash in the CSP. */}
        <script type="speculationrules" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: speculationRulesJson }} />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-ink px-4 py-2 text-paper focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to main content
        </a>
        <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
          <SiteHeader />
          <main id="main" tabIndex={-1} className="flex-1 outline-none">
            {children}
          </main>
          <SiteFooter />
        </Tooltip.Provider>
        {hydrated ? (
          <Suspense fallback={<NotificationsArea />}>
            <Toaster />
          </Suspense>
        ) : (
          <NotificationsArea />
        )}
        <ScrollRestoration />
        <Scripts />
        {/* Allowed by its hash in the CSP, like every inline script the server sends. */}
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: startScript }} />
      </body>
    </html>
  );
}

const noSubscription = () => () => {};
/** False in the server HTML and during hydration, true once React runs in the browser. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundCard />;
  // Never show a stack trace or internal message to visitors.
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center sm:px-6">
      <h1 className="font-serif text-3xl font-semibold text-ink">Something went wrong</h1>
      <p className="mt-3 text-ink-soft">
        {isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "An unexpected error occurred."} Please try again in a
        moment.
      </p>
    </div>
  );
}
