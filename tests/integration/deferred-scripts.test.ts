// The script rewrite (app/lib/deferred-scripts.server.ts) on pages React Router really rendered:
// if React Router changes how <Scripts> writes its module script or preloads, the rewrite no longer
// matches and these fail (the unit test's page is a hand-made copy and would not notice).
import { describe, expect, it } from "vitest";
import { DEFERRED_ATTRIBUTE, DEFERRED_CLASSIC_ATTRIBUTE, DEFERRED_CLASSIC_TYPE, DEFERRED_TYPE } from "~/lib/deferred-scripts";
import { rawRequest } from "../support/raw-http";
import { sharedServer } from "../support/shared-server";

const server = sharedServer();

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
    // The context React Router hydrates from, and the data it streams in, wait too: no inline
    // script of React Router's runs before the first paint.
    const inertClassic = `<script type="${DEFERRED_CLASSIC_TYPE}" ${DEFERRED_CLASSIC_ATTRIBUTE}="">`;
    expect(html).toContain(`${inertClassic}window.__reactRouterContext = `);
    expect(html).toContain(`${inertClassic}window.__reactRouterContext.streamController.enqueue(`);
    expect(html).toContain(`${inertClassic}window.__reactRouterContext.streamController.close()`);
    expect(html).not.toMatch(/<script>window\.__reactRouterContext/);
  });
});
