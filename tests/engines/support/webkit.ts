// WebKit: Debian's WebKitGTK, through its own WebDriver server (WebKitWebDriver, package
// webkit2gtk-driver) driving MiniBrowser, with selenium-webdriver as the client. The client is
// pointed at the running server (usingServer), so Selenium Manager never runs and nothing is fetched.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Builder, By, Origin, Key as SeleniumKey, type WebDriver } from "selenium-webdriver";
import { freePort } from "../../support/http";
import { waitUntil } from "../../support/wait";
import { startDenyProxy } from "./deny-proxy";
import { PHONE, type Engine, type Key } from "./engine";
import { installProblemCollector } from "./page";
import { startXvfb } from "./xvfb";

export const WEBKIT_WEBDRIVER = process.env.WEBKIT_WEBDRIVER ?? "WebKitWebDriver";

/** MiniBrowser ships in libwebkit2gtk-4.1-0, under the architecture's own library folder. */
export function miniBrowserPath(): string {
  if (process.env.WEBKIT_MINIBROWSER) return process.env.WEBKIT_MINIBROWSER;
  const triplets = existsSync("/usr/lib") ? readdirSync("/usr/lib").filter((name) => name.endsWith("-linux-gnu")) : [];
  for (const triplet of triplets) {
    for (const api of ["webkit2gtk-4.1", "webkit2gtk-4.0"]) {
      const path = `/usr/lib/${triplet}/${api}/MiniBrowser`;
      if (existsSync(path)) return path;
    }
  }
  throw new Error("no MiniBrowser under /usr/lib/*/webkit2gtk-4.*/ (apt-get install webkit2gtk-driver, or set WEBKIT_MINIBROWSER)");
}

const KEYS: Record<Key, string> = {
  Tab: SeleniumKey.TAB,
  Enter: SeleniumKey.ENTER,
  Escape: SeleniumKey.ESCAPE,
  F8: SeleniumKey.F8,
  Shift: SeleniumKey.SHIFT,
};

export async function launchWebKit(baseURL: string): Promise<Engine> {
  const binary = miniBrowserPath();
  // The screen is the phone: MiniBrowser's window cannot shrink below its toolbar's width (447 px),
  // but full-screen (--full-screen) it has no toolbar, and then takes the size the session sets.
  const display = await startXvfb(PHONE.width, PHONE.height);
  const proxy = await startDenyProxy().catch(async (error: unknown) => {
    await display.stop();
    throw error;
  });
  const port = await freePort();
  // Its own process group, so MiniBrowser (its child) goes with it if a session is left behind.
  const server = spawn(WEBKIT_WEBDRIVER, [`--port=${port}`, "--host=local"], {
    env: { ...process.env, DISPLAY: display.name },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let serverErr = "";
  server.stderr?.on("data", (chunk: Buffer) => (serverErr += chunk.toString()));
  server.once("error", (error) => (serverErr += `${error.message} (apt-get install webkit2gtk-driver, or set WEBKIT_WEBDRIVER)\n`));
  const stopServer = async () => {
    if (server.pid === undefined || server.exitCode !== null || server.signalCode !== null) return;
    process.kill(-server.pid, "SIGTERM");
    await once(server, "exit");
  };
  const cleanUp = async () => {
    await stopServer().catch(() => undefined);
    await display.stop();
    await proxy.close();
  };

  let driver: WebDriver | undefined;
  let version: string;
  try {
    const url = `http://127.0.0.1:${port}`;
    await serverReady(url, server, () => serverErr);
    driver = await new Builder()
      // SELENIUM_BROWSER or SELENIUM_REMOTE_URL in the environment must not send the session elsewhere.
      .disableEnvironmentOverrides()
      .usingServer(url)
      .withCapabilities({
        browserName: "MiniBrowser",
        "webkitgtk:browserOptions": {
          binary,
          args: [
            "--automation",
            "--full-screen",
            // Every request but loopback through the refusing proxy. (WebDriver's own proxy capability
            // sends https to an https:// proxy, which WebKitGTK then speaks TLS to.)
            `--proxy=http://${proxy.address}`,
            "--ignore-host=127.0.0.1",
            "--ignore-host=localhost",
            "--enable-dns-prefetching=false",
          ],
        },
      })
      .build();
    version = String((await driver.getCapabilities()).get("browserVersion"));
    // Full-screen hid the toolbar; the window is then sized to the phone (the screen's own size).
    await driver
      .manage()
      .window()
      .setRect({ x: 0, y: 0, ...PHONE });
  } catch (error) {
    await driver?.quit().catch(() => undefined);
    await cleanUp();
    const said = serverErr.trim().split("\n").slice(-3).join(" / ");
    throw new Error(
      `WebKitWebDriver (${WEBKIT_WEBDRIVER}) with ${binary} gave no session: ${String(error)}${said ? `; it said: ${said}` : ""}`,
    );
  }
  const session = driver;

  return {
    name: "webkit",
    version: `WebKitGTK ${version} (MiniBrowser)`,
    async goto(path) {
      // WebDriver's Navigate To returns once the page has loaded.
      await session.get(new URL(path, baseURL).href);
      // WebKitGTK's WebDriver has no console or error events: a collector from here on, before the
      // first interaction starts the page's scripts (only the inline start scripts ran before it).
      await session.executeScript(installProblemCollector);
    },
    evaluate: <A extends unknown[], R>(fn: (...args: A) => R, ...args: A) => session.executeScript<Awaited<R>>(fn, ...args),
    async click(selector) {
      await session.findElement(By.css(selector)).click();
    },
    async clickAt(x, y) {
      await session.actions().move({ x, y, origin: Origin.VIEWPORT }).click().perform();
    },
    async press(key) {
      await session.actions().sendKeys(KEYS[key]).perform();
    },
    async screenshot(file) {
      await writeFile(file, await session.takeScreenshot(), "base64");
    },
    takeEngineProblems: async () => [],
    takeBlocked: proxy.take,
    async close() {
      await session.quit().catch(() => undefined);
      await cleanUp();
    },
  };
}

/** Waits until the WebDriver server answers /status as ready (or names why it never will). */
async function serverReady(url: string, server: ReturnType<typeof spawn>, stderr: () => string): Promise<void> {
  // It answers within milliseconds; 10 s is for a 2-core machine shared with other suites.
  await waitUntil(
    async () => {
      if (server.pid === undefined || server.exitCode !== null || server.signalCode !== null) {
        throw new Error(`it did not start or exited (${server.exitCode ?? server.signalCode ?? "no process"})`);
      }
      return fetch(`${url}/status`)
        .then((response) => response.json() as Promise<{ value?: { ready?: boolean } }>)
        .then((body) => body.value?.ready === true)
        .catch(() => false);
    },
    { timeoutMs: 10_000, message: () => `not ready within 10 s: ${stderr()}` },
  );
}
