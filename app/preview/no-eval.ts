// Zod compiles its object parsers with `new Function` where it may, and decides so as each schema is
// made; the editor's policy allows no eval, and even zod's trial of it is a violation the browser
// reports. So this runs before any schema is made: register.ts imports it first. Its parsers work as
// well without compiling, a little slower, which a file's worth of content never feels.
import { z } from "zod";

z.config({ jitless: true });
