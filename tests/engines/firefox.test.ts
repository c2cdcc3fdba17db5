import { describeFlows } from "./flows";
import { launchFirefox } from "./support/firefox";

// Gecko: Debian's Firefox ESR, headless, over WebDriver BiDi.
describeFlows("Gecko (Firefox ESR)", launchFirefox);
