// The help page needs only the shared chrome (language, deck).
import { setUp } from "./page.js";

setUp();
