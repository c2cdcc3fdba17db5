// Time-zone names as calendars write them: IANA names, or Windows names (Exchange, Outlook),
// mapped to IANA with CLDR's windowsZones table as packaged by windows-iana.
import { WINDOWS_TO_IANA_MAP } from "windows-iana";
import { isTimeZone } from "~/events/time";

// CLDR lists each Windows zone once per territory; "001" is the zone's main IANA name.
const windowsToIana = new Map<string, string>();
for (const { windowsName, territory, iana } of Object.values(WINDOWS_TO_IANA_MAP)) {
  const key = windowsName.toLowerCase();
  if (iana[0] && (territory === "001" || !windowsToIana.has(key))) windowsToIana.set(key, iana[0]);
}

/** The IANA name for a zone name written by a calendar (IANA or Windows), or undefined when unknown. */
export function ianaZone(name: string | undefined): string | undefined {
  const trimmed = name?.trim().replace(/^"(.*)"$/, "$1");
  if (!trimmed) return undefined;
  if (isTimeZone(trimmed)) return trimmed;
  const mapped = windowsToIana.get(trimmed.toLowerCase());
  return mapped && isTimeZone(mapped) ? mapped : undefined;
}
