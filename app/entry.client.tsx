import { startTransition, StrictMode } from "react";
import { HydratedRouter } from "react-router/dom";

// Every page is complete as server HTML: links, the contact form and the drawer (a native
// <dialog> opened by an invoker command) work before React runs. So React DOM, the largest
// download, loads and hydrates only once a person interacts; a visitor who only reads never
// pays for it. See docs/decisions/deferred-hydration.md.
const INTERACTIONS = ["pointerdown", "pointermove", "touchstart", "keydown", "focusin", "wheel", "click"] as const;

function firstInteraction(): Promise<void> {
  return new Promise((resolve) => {
    const options = { capture: true, passive: true } as const;
    const onInteraction = () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, onInteraction, options);
      resolve();
    };
    for (const type of INTERACTIONS) window.addEventListener(type, onInteraction, options);
  });
}

async function hydrate() {
  await firstInteraction();
  const { hydrateRoot } = await import("react-dom/client");
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

void hydrate();
