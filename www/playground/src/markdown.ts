// The model's Markdown, rendered for people: markdown-it with raw HTML off, then DOMPurify.
// breaks: true keeps the three header lines (status/state/flags) on their own lines, as written.
import MarkdownIt from "markdown-it";
import DOMPurify from "dompurify";

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: true });

/** Tables scroll sideways (display: block; overflow-x: auto): keyboard users can focus them to scroll. */
export function focusableTables(root: HTMLElement): void {
  root.querySelectorAll("table").forEach((t) => (t.tabIndex = 0));
}

export function renderMarkdownHtml(markdown: string): string {
  return DOMPurify.sanitize(md.render(markdown), { USE_PROFILES: { html: true } });
}
