import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const serverModules = {
  group: ["**/*.server", "**/*.server.ts", "~/env.server", "~/config.server"],
  message: "*.server modules must never reach the browser bundle.",
};

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "test-results/", "playwright-report/", "bench-results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Only env.server.ts reads the environment (plus the process entry, scripts and tests).
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    ignores: ["app/env.server.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through app/env.server.ts." },
      ],
    },
  },
  {
    // Browser code: shared components, content and the events UI never touch server modules.
    files: ["app/components/**", "app/content/**", "app/lib/**", "app/events/*.{ts,tsx}"],
    // A server module (and its test) beside them may use other server modules.
    ignores: ["**/*.server.ts", "**/*.server.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverModules] }] },
  },
  {
    // Shared UI and content stay independent of the events feature.
    files: ["app/components/**", "app/content/**"],
    // The build-time content loader (load, images, plugin) is Node code and may use its siblings.
    ignores: ["**/*.server.ts", "**/*.server.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            serverModules,
            { group: ["~/events/*", "../events/*"], message: "components/ and content/ must not depend on the events feature." },
          ],
        },
      ],
    },
  },
  {
    // One way to wait in a test (tests/support/wait.ts says which): a test asserts with expect.poll, vitest's or
    // Playwright's; waitUntil is for where expect.poll cannot run (hooks, helpers, setups, fixtures); vitest's own
    // waits (which move fake timers themselves) are not used.
    files: ["**/*.test.{ts,tsx}", "**/*.spec.ts"],
    rules: {
      // Syntax, so as not to replace the import and property rules some of these files have already.
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.name='waitUntil']:not(CallExpression[callee.name=/^(before|after)(All|Each)$/] *)",
          message: "A test waits with expect.poll; waitUntil is for hooks and helpers, where it cannot run (tests/support/wait.ts).",
        },
        {
          selector: "MemberExpression[object.name='vi'][property.name=/^(waitUntil|waitFor)$/]",
          message: "Wait with expect.poll (tests/support/wait.ts).",
        },
      ],
    },
  },
  {
    files: ["server.js", "scripts/**/*.js", "*.config.{js,ts}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly", setTimeout: "readonly" } },
  },
);
