import { useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

/**
 * After an in-app navigation (the events tabs and "Show all"; every link in a browser without
 * speculation rules), a new page starts at its top or its #fragment, and a new view of the same
 * page keeps its scroll; back and forward are the browser's own restoration. React Router's
 * <ScrollRestoration> also wrote every scroll position to sessionStorage on pagehide, on the path
 * of every click that leaves the page, and ran an inline script at load (issue 30).
 */
export function ScrollReset() {
  const { pathname, hash, key } = useLocation();
  const type = useNavigationType();
  const shown = useRef({ key, pathname });
  useLayoutEffect(() => {
    const before = shown.current;
    shown.current = { key, pathname };
    if (before.key === key || type === "POP" || (before.pathname === pathname && !hash)) return;
    let target: HTMLElement | null = null;
    try {
      target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    } catch {
      // A fragment that is not valid percent-encoding names no element.
    }
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [key, pathname, hash, type]);
  return null;
}
