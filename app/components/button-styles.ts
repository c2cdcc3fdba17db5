// Shared looks for links styled as buttons (real <button>s use the same classes).
const base =
  "inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass-dark";

export const buttonStyles = {
  primary: `${base} bg-ink text-paper hover:bg-ink-soft px-5 py-2.5 text-sm`,
  primaryLarge: `${base} bg-ink text-paper hover:bg-ink-soft px-7 py-3.5 text-base`,
  light: `${base} bg-paper text-ink hover:bg-sand px-7 py-3.5 text-base`,
  outline: `${base} border border-ink/25 text-ink hover:border-ink hover:bg-sand px-5 py-2.5 text-sm`,
  outlineLarge: `${base} border border-ink/25 text-ink hover:border-ink hover:bg-sand px-7 py-3.5 text-base`,
} as const;
