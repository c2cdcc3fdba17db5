import type { Page } from "@playwright/test";

/** The global React Router's client sets to its router: an internal of its, which the site must not read. */
export const ROUTER_GLOBAL = "__reactRouterDataRouter";

/**
 * Serves the client's chunks with ROUTER_GLOBAL renamed throughout, as a release of React Router that renamed it
 * would ship them; resolves to a count of the chunks that held it (none: the installed version no longer has it).
 */
export async function renameRouterGlobal(page: Page): Promise<() => number> {
  let renamed = 0;
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes(ROUTER_GLOBAL)) renamed++;
    await route.fulfill({ response, body: body.replaceAll(ROUTER_GLOBAL, "__renamedDataRouter") });
  });
  return () => renamed;
}
