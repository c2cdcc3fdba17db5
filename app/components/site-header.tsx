import { NavLink, Link } from "react-router";
import { ExternalLink } from "lucide-react";
import { newTab } from "~/lib/external";
import { buttonStyles } from "./button-styles";
import { Logo } from "./logo";
import { MobileMenu } from "./mobile-menu";
import { navItems, navLinkClass } from "./navigation";
import { usePublicConfig } from "./use-public-config";

export function SiteHeader() {
  const { loginUrl } = usePublicConfig();
  return (
    <header className="sticky top-0 z-40 border-b border-ink/10 bg-paper/95 backdrop-blur supports-[backdrop-filter]:bg-paper/85">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <MobileMenu />
        <Logo compact />
        <nav aria-label="Main" className="ml-auto hidden md:block">
          <ul className="flex items-center gap-3 lg:gap-6 xl:gap-7">
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className={(state) => `${navLinkClass(state)} text-sm lg:text-[0.9375rem]`}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden shrink-0 items-center gap-2 md:ml-3 md:flex lg:ml-4">
          <Link to="/apply" className={buttonStyles.primary}>
            Apply
          </Link>
          <a href={loginUrl} {...newTab} className={buttonStyles.outline}>
            Login
            <ExternalLink aria-hidden="true" className="size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </div>
      </div>
      <noscript>
        {/* Without scripting the drawer's button is hidden (app.css) and these links show instead. */}
        <nav aria-label="Main" className="border-t border-ink/10 px-4 py-2 md:hidden">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {navItems.map((item) => (
              <li key={item.to}>
                <a href={item.to} className="underline">
                  {item.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/apply" className="underline">Apply</a>
            </li>
            <li>
              <a href={loginUrl} {...newTab} className="underline">Login</a>
            </li>
          </ul>
        </nav>
      </noscript>
    </header>
  );
}
