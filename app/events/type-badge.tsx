import { cx } from "~/lib/cx";
import { badgeLabel, type EventType } from "./classify";

/** The Members Only / Open badge, the same colours on the lists and the event's page (its look: app.css, .event-badge). */
export function TypeBadge({ type, size = "regular", className }: { type: EventType; size?: "small" | "regular"; className?: string }) {
  return (
    <span
      className={cx("event-badge", size === "small" && "event-badge-small", type === "members-only" && "event-badge-members", className)}
    >
      {badgeLabel[type]}
    </span>
  );
}
