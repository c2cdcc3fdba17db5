// Invoker commands (HTML: `command` / `commandfor`) open and close dialogs without JavaScript.
// React passes lowercase attributes through as they are; its types do not list these yet.
import "react";

declare module "react" {
  // Merging with React's declaration requires its type parameter, unused here.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    command?: "show-modal" | "close" | "request-close" | "toggle-popover" | "show-popover" | "hide-popover";
    commandfor?: string;
  }
}
