// Which locale a page starts in (docs/decisions.md#the-playground-speaks-the-sessions-locale).
// No runtime imports: test/locale.test.mjs loads it in Node.
import type { Locale } from "../types";

/**
 * `?locale=en|zh` (or `locale=` among the hash's parameters, as the co-editing view takes its
 * own) when the address says, else zh when the browser's language is Chinese (`zh`, `zh-CN`,
 * `zh-TW`, …), else en. The playground's share link, once opened, sets its own `locale`.
 */
export function startLocale(search: string, language: string): Locale {
  const asked = new URLSearchParams(search).get("locale");
  if (asked === "en" || asked === "zh") return asked;
  return language.toLowerCase().startsWith("zh") ? "zh" : "en";
}
