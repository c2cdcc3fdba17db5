// The script rewrite (app/lib/deferred-scripts.server.ts) on pages React Router really rendered:
// if React Router changes how <Scripts> writes its module script, preloads or inline scripts, the rewrite no
// longer matches and these fail (the unit test's page is a hand-made copy and would not notice).
import { describe, expect, it } from "vitest";
import {
  DEFERRED_ATTRIBUTE,
  DEFERRED_CLASSIC_ATTRIBUTE,
  DEFERRED_CLASSIC_TYPE,
  DEFERRED_TYPE,
  startOnFirstInteraction,
  RUNS_AT_LOAD_ATTRIBUTE,
} from "~/lib/deferred-scripts";
import { rawRequest } from "../support/raw-http";
import { sharedServer } from "../support/shared-server";

const server = sharedServer();

/** Every script tag of a page: its attributes and its code. */
const scriptsOf = (html: string) =>
  [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes = "", code = ""]) => ({ attributes, code }));

describe.each(["/", "/events", "/about", "/no-such-page"])("the scripts of %s as served", (path) => {
  it("are React Router's, made inert: no module script, no preload, the client entry imported by the inert copy", async () => {
    const html = (await rawRequest(server.url, path)).body;
    // React Router's manifest names the client entry the inert script must start.
    const entry = /"entry":\s*\{\s*"module":\s*"(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry, "React Router's manifest in the page").toBeDefined();
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).not.toContain('rel="modulepreload"');
    const inert = [...html.matchAll(new RegExp(`<script[^>]*type="${DEFERRED_TYPE}"[^>]*>([\\s\\S]*?)</script>`, "g"))];
    expect(inert).toHaveLength(1);
    expect(inert[0]![0]).toContain(`${DEFERRED_ATTRIBUTE}=""`);
    expect(inert[0]![1]).toContain(`import("${entry}")`);
  });

  it("run at load: the site's start script alone; React Router's context and the data it streams in wait too", async () => {
    const scripts = scriptsOf((await rawRequest(server.url, path)).body);
    // A classic script that runs: no type, or JavaScript's.
    const live = scripts.filter(({ attributes }) => !/\btype="(?!text\/javascript")/.test(attributes));
    expect(live.map(({ attributes }) => attributes.trim())).toEqual([`${RUNS_AT_LOAD_ATTRIBUTE}=""`]);
    expect(live[0]!.code).toContain(`function ${startOnFirstInteraction.name}(`);
    // The context, the data (at least one piece) and the stream's close.
    const waiting = scripts.filter(({ attributes }) =>
      attributes.includes(`type="${DEFERRED_CLASSIC_TYPE}" ${DEFERRED_CLASSIC_ATTRIBUTE}=""`),
    );
    expect(waiting.length).toBeGreaterThanOrEqual(3);
  });
});
