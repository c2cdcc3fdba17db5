// Gecko: Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core, which speaks BiDi to
// Firefox itself (no geckodriver, which Debian does not package) and downloads nothing.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import puppeteer, { type Browser, type KeyInput, type Page } from "puppeteer-core";
import { startDenyProxy } from "./deny-proxy";
import { PHONE, type Engine, type Key } from "./engine";
import { installProblemCollector } from "./page";

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

/**
 * Preferences on top of puppeteer's own (which already turn off updates, Safe Browsing, health
 * reports, the add-ons service and more): Firefox talks to no one but the site, and every other
 * request goes to the refusing proxy, so one that slips through still never leaves the machine.
 */
function preferences(proxy: string): Record<string, unknown> {
  const [host, port] = proxy.split(":");
  return {
    // Everything but loopback through the proxy (Firefox never proxies localhost/127.0.0.1 itself).
    "network.proxy.type": 1,
    "network.proxy.http": host,
    "network.proxy.http_port": Number(port),
    "network.proxy.ssl": host,
    "network.proxy.ssl_port": Number(port),
    "network.proxy.share_proxy_settings": true,
    "network.proxy.socks_remote_dns": true,
    // Remote Settings (blocklists, certificate revocation lists and the like): none. ESR takes this
    // only with MOZ_DISABLE_NONLOCAL_CONNECTIONS set (see the launch below).
    "services.settings.server": "data:,#remote-settings-dummy/v1",
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
    "network.dns.disablePrefetch": true,
    "network.prefetch-next": false,
    "network.predictor.enabled": false,
    "network.trr.mode": 5,
    "app.update.auto": false,
    "app.update.enabled": false,
    "toolkit.telemetry.enabled": false,
    "toolkit.telemetry.server": "",
    "toolkit.telemetry.unified": false,
    "browser.ping-centre.telemetry": false,
    "browser.region.network.url": "",
    "browser.region.update.enabled": false,
    "browser.topsites.contile.enabled": false,
    "geo.provider.network.url": "",
    "identity.fxaccounts.enabled": false,
    "extensions.blocklist.enabled": false,
    // A phone's overlay scrollbars: the layout is the window's full 375 px, as on an iPhone.
    "ui.useOverlayScrollbars": 1,
  };
}

const KEYS: Record<Key, KeyInput> = { Tab: "Tab", Enter: "Enter", Escape: "Escape", F8: "F8", Shift: "Shift" };

export async function launchFirefox(baseURL: string): Promise<Engine> {
  // Said before puppeteer makes a profile it would leave behind.
  if (!existsSync(FIREFOX_PATH)) throw new Error(`no Firefox at ${FIREFOX_PATH} (apt-get install firefox-esr, or set FIREFOX_PATH)`);
  const proxy = await startDenyProxy();
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: FIREFOX_PATH,
      headless: true,
      extraPrefsFirefox: preferences(proxy.address),
      // Mozilla's own test harness sets this: Remote Settings then honours the server above.
      env: { ...process.env, MOZ_DISABLE_NONLOCAL_CONNECTIONS: "1" },
    });
  } catch (error) {
    await proxy.close();
    throw new Error(`Firefox did not start from ${FIREFOX_PATH} (apt-get install firefox-esr, or set FIREFOX_PATH): ${String(error)}`);
  }
  const page: Page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.setViewport(PHONE);
  // From the first script of every document (a BiDi preload script).
  await page.evaluateOnNewDocument(installProblemCollector);
  // The page's own collector has each document's problems in full, from its first script; these are
  // a second witness. Not while the suite leaves a page: Firefox still runs the old page as its
  // requests are cut, and it logs them (React Router's route discovery: "Failed to fetch manifest
  // patches"; Chromium and WebKit stay silent). Nothing a visitor sees, and the next page is watched
  // by its own collector from the start.
  let problems: string[] = [];
  let leaving = false;
  page.on("console", (message) => {
    const type = message.type();
    if (leaving || (type !== "error" && type !== "warn")) return;
    const top = message.stackTrace()[0] ?? message.location();
    problems.push(`console.${type}: ${message.text()} (${top.url ?? ""}:${top.lineNumber ?? ""}, seen by the engine)`);
  });
  page.on("pageerror", (error) => {
    if (!leaving)
      problems.push(`uncaught ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)} (seen by the engine)`);
  });

  return {
    name: "firefox",
    version: `Firefox ${(await browser.version()).replace(/^firefox\//, "")}`,
    async goto(path) {
      leaving = true;
      try {
        await page.goto(new URL(path, baseURL).href, { waitUntil: "load" });
      } finally {
        leaving = false;
      }
    },
    evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
      // Puppeteer types the arguments as they arrive in the page (handles unwrapped); these are plain values.
      return page.evaluate(fn as unknown as (...params: unknown[]) => R, ...args) as Promise<Awaited<R>>;
    },
    async click(selector) {
      await page.click(selector);
    },
    async clickAt(x, y) {
      await page.mouse.click(x, y);
    },
    async press(key) {
      await page.keyboard.press(KEYS[key]);
    },
    async screenshot(file) {
      await writeFile(file, await page.screenshot({ type: "png" }));
    },
    async takeEngineProblems() {
      const taken = problems;
      problems = [];
      return taken;
    },
    takeBlocked: proxy.take,
    async close() {
      await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
      await proxy.close();
    },
  };
}
