// The Response pane: badges, Markdown, Basic line, JSON, next actions, session log.
import { h, renderBadges, renderJson, renderMarkdown, renderNextActions, renderSessionLog } from "../render";
import { $ } from "./dom";
import { LANG, watch, type PageState, type PageStore } from "./store";
import { t } from "../phrases";

/** How many earlier calls the Basic column lists (most recent last). */
const BASIC_HISTORY = 4;

function renderResponsePanel(s: PageState, store: PageStore): void {
  const rec = s.history[s.shown];
  const badges = $("response-badges");
  const md = $("response-markdown");
  const basic = $("response-basic");
  const json = $("response-json");
  const next = $("next-actions");
  const earlier = $("basic-history");
  earlier.replaceChildren();
  if (!rec) {
    badges.replaceChildren(h("span", { class: "muted" }, t("response.no_call")));
    md.replaceChildren();
    json.replaceChildren();
    next.replaceChildren();
    basic.textContent = "";
    $("response-tool").textContent = "";
  } else {
    const r = rec.response;
    const lang = LANG[rec.locale];
    badges.replaceChildren(renderBadges(r));
    // Shown as the text the model keeps (not rendered): it is one line of Markdown source.
    basic.textContent = r.markdown_basic;
    basic.setAttribute("lang", lang);
    const latest = s.shown === s.history.length - 1;
    $("response-tool").textContent = `#${s.shown + 1} ${rec.tool}` + (latest ? "" : t("response.not_latest", { n: s.history.length }));
    const view = renderMarkdown(r.markdown);
    view.setAttribute("lang", lang);
    md.replaceChildren(view);
    json.replaceChildren(renderJson(r));
    next.replaceChildren(renderNextActions(r.next_actions, (tool) => store.dispatch({ type: "fillConsole", tool, args: null })));
    // The calls before it, as an agent's history would keep them: one Basic line each.
    const from = Math.max(0, s.shown - BASIC_HISTORY);
    if (from > 0) earlier.append(h("li", { class: "muted more" }, t("response.earlier", { n: from })));
    for (let i = from; i < s.shown; i++) {
      const c = s.history[i];
      const item = h(
        "li",
        { lang: LANG[c.locale], title: c.response.markdown_basic, "data-call": i + 1 },
        h("span", { class: "call-no" }, `#${i + 1}`),
        c.response.markdown_basic,
      );
      item.addEventListener("click", () => store.dispatch({ type: "show", index: i }));
      earlier.append(item);
    }
  }
  $("basic-history-wrap").hidden = earlier.childElementCount === 0;
  const log = rec?.response.session_log ?? null;
  const logWrap = $("session-log-wrap");
  logWrap.hidden = log === null;
  $("session-log").replaceChildren(log === null ? "" : renderSessionLog(log));
}

export function mountResponse(store: PageStore): void {
  watch(
    store,
    (s) => [s.revs.workspace, s.shown],
    (s) => renderResponsePanel(s, store),
    false,
  );
}
