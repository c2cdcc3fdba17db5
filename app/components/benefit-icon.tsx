import { BadgePercent, CalendarDays, GraduationCap, Mic, Newspaper, Users } from "lucide-react";
import type { Benefit } from "~/content/schema";

const icons = {
  users: Users,
  newspaper: Newspaper,
  calendar: CalendarDays,
  mic: Mic,
  "badge-percent": BadgePercent,
  "graduation-cap": GraduationCap,
} satisfies Record<Benefit["icon"], unknown>;

export function BenefitIcon({ name }: { name: Benefit["icon"] }) {
  const Icon = icons[name];
  return <Icon aria-hidden="true" className="size-6" strokeWidth={1.75} />;
}
