import * as Tooltip from "@radix-ui/react-tooltip";
import { lazy, Suspense, useSyncExternalStore } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { NotFoundCard } from "./components/not-found-card";
import { ScrollReset } from "./components/scroll-reset";
import { OrganizationJsonLd } from "./components/organization-json-ld";
import { PreviewBanner } from "./components/preview-banner";
import { usePublicConfig } from "./components/use-public-config";
import { site } from "./content";
import { SiteFooter } from "./components/site-footer";
import { SiteHeader } from "./components/site-header";
import { NotificationsArea } from "./components/toast/notifications-area";
import { tabSwitchScript } from "./events/tab-switch";
import { deferredStartScript, RUNS_AT_LOAD_ATTRIBUTE } from "./lib/deferred-scripts";
import { speculationRulesJson } from "./lib/speculation-rules";
import { siteParts } from "./site-parts.server";

/** The one inline script that runs at load: React waits for a person, and the events tabs switch in place meanwhile. */
const startScript = deferredStartScript + tabSwitchScript;

// Toasts only ever follow a visitor's action, so their code loads after hydration.
const Toaster = lazy(() => import("./components/toast/toaster"));

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function loader({ context }: Route.LoaderArgs) {
  return { config: siteParts(context).publicConfig };
}

// The public configuration is fixed for the server's life: no navigation asks for it again (an
// events tab switch, above all, needs nothing from the network).
export function shouldRevalidate() {
  return false;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const hydrated = useHydrated();
  const { loginUrl } = usePublicConfig();
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
          <PreviewBanner />
          <SiteHeader site={site} loginUrl={loginUrl} />
          <main id="main" tabIndex={-1} className="flex-1 outline-none">
            {children}
          </main>
          <SiteFooter site={site} />
        </Tooltip.Provider>
        {hydrated ? (
          <Suspense fallback={<NotificationsArea />}>
            <Toaster />
          </Suspense>
        ) : (
          <NotificationsArea />
        )}
        <ScrollReset />
        <Scripts />
        {/* Allowed by its hash in the CSP, like every inline script the server sends; marked, so it is not deferred with React Router's. */}
        <script {...{ [RUNS_AT_LOAD_ATTRIBUTE]: "" }} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: startScript }} />
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
