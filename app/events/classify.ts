import type { CalendarEvent } from "./model";

export type EventType = "members-only" | "open";

export const UNTITLED = "Untitled Event";

/** Spec §4: members-only when the title contains "member" in any letter case. */
export function eventType(title: string | undefined): EventType {
  return /member/i.test(title ?? "") ? "members-only" : "open";
}

export const badgeLabel: Record<EventType, string> = { "members-only": "Members Only", open: "Open" };

export function eventTitle(event: CalendarEvent): string {
  return event.summary?.trim() || UNTITLED;
}
