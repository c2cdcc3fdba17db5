import { cx } from "~/lib/cx";
import { badgeLabel, type EventType } from "./classify";

const sizeClass = {
  small: "px-2 py-0.5 text-[0.6875rem]",
  regular: "px-3 py-1 text-xs",
};

/** The Members Only / Open badge, the same colours on the list, the card and the event's page. */
export function TypeBadge({ type, size = "regular", className }: { type: EventType; size?: keyof typeof sizeClass; className?: string }) {
  return (
    <span
      className={cx(
        "rounded-full font-semibold tracking-wide uppercase",
        sizeClass[size],
        type === "members-only" ? "bg-ink text-paper" : "bg-sand text-ink",
        className,
      )}
    >
      {badgeLabel[type]}
    </span>
  );
}
