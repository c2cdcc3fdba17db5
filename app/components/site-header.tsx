import { ExternalLink } from "lucide-react";
import { newTab } from "~/lib/external";
import { buttonStyles } from "./button-styles";
import { Logo, type LogoSite } from "./logo";
import { MobileMenu } from "./mobile-menu";
import { navItems, navLinkClass } from "./navigation";
import { PageLink, PageNavLink } from "./page-link";

/** Every page's header: the site's name (site.yaml) and the membership platform's login page. */
export function SiteHeader({ site, loginUrl }: { site: LogoSite; loginUrl: string }) {
  return (
    // An opaque header: a backdrop-filter blur over the scrolling page cost about 60 ms of main-thread
    // time per load on a throttled phone (issue 22), for a difference no one sees on this paper colour.
    <header className="sticky top-0 z-40 border-b border-ink/10 bg-paper">
      {/* Below lg (phones and upright tablets, to 1023 px) the links live in the drawer: the full
          navigation with Apply and Login needs about 960 px at its compact lg size, and more at xl. */}
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <MobileMenu loginUrl={loginUrl} />
        <Logo site={site} />
        <nav aria-label="Main" className="ml-auto hidden lg:block">
          <ul className="flex items-center gap-4 xl:gap-7">
            {navItems.map((item) => (
              <li key={item.to}>
                <PageNavLink to={item.to} end className={(state) => `${navLinkClass(state)} text-sm xl:text-[0.9375rem]`}>
                  {item.label}
                </PageNavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-4 hidden shrink-0 items-center gap-2 lg:flex">
          <PageLink to="/apply" className={buttonStyles.primary}>
            Apply
          </PageLink>
          <a href={loginUrl} {...newTab} className={buttonStyles.outline}>
            Login
            <ExternalLink aria-hidden="true" className="size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </div>
      </div>
      <noscript>
        {/* Without scripting the drawer's button is hidden (app.css) and these links show instead. */}
        <nav aria-label="Main" className="border-t border-ink/10 px-4 py-2 lg:hidden">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {navItems.map((item) => (
              <li key={item.to}>
                <a href={item.to} className="underline">
                  {item.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/apply" className="underline">
                Apply
              </a>
            </li>
            <li>
              <a href={loginUrl} {...newTab} className="underline">
                Login
              </a>
            </li>
          </ul>
        </nav>
      </noscript>
    </header>
  );
}
