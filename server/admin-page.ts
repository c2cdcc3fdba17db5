// The bare page the content editor's own addresses answer with (/admin, and its sign-in's callback):
// not indexed, our favicon, and what the caller puts in its head and body.

/** Text made safe for HTML, attribute values included. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function adminPage(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${head}</head>
<body>
${body}
</body>
</html>
`;
}
