import { describeFlows } from "./flows";
import { launchWebKit } from "./support/webkit";

// Safari's engine: WebKitGTK (Debian's webkit2gtk-driver), under a virtual screen of a phone's size.
describeFlows("WebKit (WebKitGTK's MiniBrowser)", launchWebKit);
