// Google's partial response (the `fields` parameter) for the fake Calendar API: comma lists,
// a/b paths, nested parentheses and `*`, checked against the fields of events.list's answer.
// Anything else (bad syntax, a field the resource does not have) is Google's 400.

/** A selection: each named field wholly (`true`) or in part (a nested selection). */
export type Selection = Map<string, Selection | true>;

/** The fields a selection may name; `any` where the fake does not check deeper. */
type Shape = { [field: string]: Shape | "any" };
const TIME: Shape = { date: "any", dateTime: "any", timeZone: "any" };
const PERSON: Shape = { id: "any", email: "any", displayName: "any", self: "any" };
const EVENT: Shape = {
  kind: "any",
  etag: "any",
  id: "any",
  status: "any",
  htmlLink: "any",
  created: "any",
  updated: "any",
  summary: "any",
  description: "any",
  location: "any",
  colorId: "any",
  creator: PERSON,
  organizer: PERSON,
  start: TIME,
  end: TIME,
  endTimeUnspecified: "any",
  recurrence: "any",
  recurringEventId: "any",
  originalStartTime: TIME,
  transparency: "any",
  visibility: "any",
  iCalUID: "any",
  sequence: "any",
  attendees: "any",
  attendeesOmitted: "any",
  extendedProperties: "any",
  hangoutLink: "any",
  conferenceData: "any",
  gadget: "any",
  anyoneCanAddSelf: "any",
  guestsCanInviteOthers: "any",
  guestsCanModify: "any",
  guestsCanSeeOtherGuests: "any",
  privateCopy: "any",
  locked: "any",
  reminders: "any",
  source: "any",
  workingLocationProperties: "any",
  outOfOfficeProperties: "any",
  focusTimeProperties: "any",
  attachments: "any",
  birthdayProperties: "any",
  eventType: "any",
};
export const EVENTS_LIST_SHAPE: Shape = {
  kind: "any",
  etag: "any",
  summary: "any",
  description: "any",
  updated: "any",
  timeZone: "any",
  accessRole: "any",
  defaultReminders: "any",
  nextPageToken: "any",
  nextSyncToken: "any",
  items: EVENT,
};

export class FieldsError extends Error {
  override name = "FieldsError";
}

/** Parses `fields` (throws FieldsError on anything Google would refuse). */
export function parseFields(text: string, shape: Shape = EVENTS_LIST_SHAPE): Selection {
  let at = 0;
  const fail = (): never => {
    throw new FieldsError(`Invalid field selection ${text}`);
  };
  const name = (): string => {
    const match = /^(\*|[A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(at));
    if (!match) return fail();
    at += match[0].length;
    return match[0];
  };
  const list = (allowed: Shape | "any", closing: boolean): Selection => {
    const selection: Selection = new Map();
    for (;;) {
      // a/b/c(…): a path of names, then an optional nested list for its last name.
      const path = [name()];
      while (text[at] === "/") {
        at++;
        path.push(name());
      }
      let inner: Selection | true = true;
      let target: Shape | "any" = allowed;
      for (const field of path) target = field === "*" || target === "any" ? "any" : (target[field] ?? fail());
      if (text[at] === "(") {
        at++;
        inner = list(target, true);
        if (text[at] !== ")") fail();
        at++;
      }
      add(selection, path, inner);
      if (text[at] === ",") {
        at++;
        continue;
      }
      if (at === text.length ? closing : text[at] !== ")" || !closing) fail();
      return selection;
    }
  };
  if (text.trim() === "") fail();
  return list(shape, false);
}

function add(selection: Selection, path: string[], inner: Selection | true): void {
  const [head, ...rest] = path as [string, ...string[]];
  const existing = selection.get(head);
  if (existing === true) return; // already whole
  if (rest.length === 0) {
    if (inner === true || existing === undefined) selection.set(head, inner);
    else for (const [field, value] of inner) add(existing, [field], value);
    return;
  }
  const into: Selection = existing ?? new Map();
  selection.set(head, into);
  add(into, rest, inner);
}

/** The parts of `value` the selection names, in the value's own key order (as Google answers). */
export function applyFields(value: unknown, selection: Selection | true): unknown {
  if (selection === true || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => applyFields(item, selection));
  const out: Record<string, unknown> = {};
  const all = selection.get("*");
  for (const [key, field] of Object.entries(value)) {
    const chosen = selection.get(key) ?? all;
    if (chosen !== undefined) out[key] = applyFields(field, chosen);
  }
  return out;
}
