import { Share2 } from "lucide-react";
import type { MouseEvent } from "react";
import { toast } from "~/components/toast/toast-store";

/**
 * A link to the page itself (`path`; the address shared is `url`, the canonical one): without JavaScript it is a plain link (open it, copy its address).
 * With JavaScript, the Web Share API where the browser has it, the clipboard otherwise, and a toast
 * saying what happened.
 */
export function ShareLink({ path, url, title, className }: { path: string; url: string; title: string; className: string }) {
  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // The visitor closed the share sheet: nothing to say.
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: "Link copied", description: "Paste it anywhere to share this event." });
    } catch {
      // No clipboard (permissions, an insecure origin): show the link so it can be copied by hand.
      toast({ duration: Number.POSITIVE_INFINITY, title: "Copy this link to share the event", description: url });
    }
  }

  return (
    <a href={path} onClick={(event) => void onClick(event)} className={className}>
      <Share2 aria-hidden="true" className="size-4" />
      Share this event
    </a>
  );
}
