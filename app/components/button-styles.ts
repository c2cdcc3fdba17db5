// Shared looks for links styled as buttons (real <button>s use the same classes).
const base =
  "inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2";
// The focus ring sits on the page around the button: brass on light pages, paper on dark ones
// (brass on ink is 2.6:1, under the 3:1 a focus indicator needs).
const onLight = `${base} focus-visible:outline-brass-dark`;
const onDark = `${base} focus-visible:outline-paper`;

export const buttonStyles = {
  primary: `${onLight} bg-ink text-paper hover:bg-ink-soft px-5 py-2.5 text-sm`,
  primaryLarge: `${onLight} bg-ink text-paper hover:bg-ink-soft px-7 py-3.5 text-base`,
  light: `${onDark} bg-paper text-ink hover:bg-sand px-7 py-3.5 text-base`,
  outline: `${onLight} border border-ink/25 text-ink hover:border-ink hover:bg-sand px-5 py-2.5 text-sm`,
  outlineLarge: `${onLight} border border-ink/25 text-ink hover:border-ink hover:bg-sand px-7 py-3.5 text-base`,
} as const;
