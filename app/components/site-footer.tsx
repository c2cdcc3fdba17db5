import { Mail, MapPin } from "lucide-react";
import type { Content } from "~/content/schema";
import { Logo } from "./logo";
import { PageLink } from "./page-link";
import { footerLinks } from "./navigation";

// Brass focus rings are 2.6:1 on ink, under the 3:1 an indicator needs; paper is 14:1.
const focusOnInk = "rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-paper";

export type FooterSite = Pick<Content["site"], "name" | "shortName" | "tagline" | "email" | "location" | "copyrightYear">;

/** Every page's footer, drawn from site.yaml (the content editor's preview of it draws it too, app/preview/). */
export function SiteFooter({ site }: { site: FooterSite }) {
  return (
    <footer className="bg-ink text-paper/80">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_1fr_1.4fr]">
        <div className="flex flex-col gap-3">
          <Logo site={site} tone="light" className="self-start" />
          <p className="max-w-xs text-sm">{site.tagline}</p>
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="mb-3 text-xs font-semibold tracking-[0.16em] text-paper uppercase">
            Quick Links
          </h2>
          <ul className="flex flex-col gap-1 text-sm">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <PageLink to={link.to} className={`inline-block py-1.5 hover:text-paper hover:underline ${focusOnInk}`}>
                  {link.label}
                </PageLink>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="mb-3 text-xs font-semibold tracking-[0.16em] text-paper uppercase">Contact</h2>
          <ul className="flex flex-col gap-2 text-sm">
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 shrink-0" />
              <a href={`mailto:${site.email}`} className={`hover:text-paper hover:underline ${focusOnInk}`}>
                {site.email}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <MapPin aria-hidden="true" className="size-4 shrink-0" />
              {site.location}
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-paper/15">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs sm:px-6">
          © {site.copyrightYear} {site.name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
