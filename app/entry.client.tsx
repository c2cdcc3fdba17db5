import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { markReactStarted } from "./lib/react-started";

// This module runs only after the visitor's first interaction: the server sends React Router's
// module script inert and app/lib/deferred-scripts.ts starts it (docs/decisions/deferred-hydration.md).
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
// React now answers the page's events: the events tabs' start script leaves their clicks to React Router.
markReactStarted();
