/** A quiet loading indicator with its text, announced politely to screen readers. */
export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center gap-3 py-10 text-ink-soft">
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-ink/20 border-t-ink motion-reduce:animate-none"
      />
      {label}
    </div>
  );
}
