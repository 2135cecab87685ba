"""The share panel's "Copy link" button: the page's link as the address bar holds it when
clicked (the URL follows every control and the open tab: ``session.sync_url``), put on the
clipboard. Streamlit has no clipboard API, so a few lines of the page's own JavaScript do it;
on a plain-http server the browser may refuse the Clipboard API, and the older copy command
is tried before saying to copy the address bar."""

from __future__ import annotations

import html
import json

import streamlit as st

from ragviz_app.common import tr

BUTTON_CLASS = "rv-copy-link"

_SCRIPT = """<script>
(() => {
  for (const button of document.querySelectorAll("button.%(cls)s:not([data-bound])")) {
    button.dataset.bound = "1";
    const words = JSON.parse(button.dataset.words);
    const copy = async (text) => {
      try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* next */ }
      const area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      let done = false;
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      area.remove();
      return done;
    };
    button.addEventListener("click", async () => {
      const done = await copy(window.location.href);
      button.textContent = done ? words.done : words.failed;
      setTimeout(() => { button.textContent = words.label; }, 2500);
    });
  }
})();
</script>"""

_STYLE = """<style>
button.%(cls)s{width:100%%;padding:.4rem .75rem;border-radius:.5rem;font:inherit;font-size:.875rem;
cursor:pointer;
border:1px solid rgba(49,51,63,.2);background:#fff;color:inherit;line-height:1.6}
button.%(cls)s:hover{border-color:#1d4ed8;color:#1d4ed8}
</style>"""


def button_html(label: str, done: str, failed: str, help_text: str) -> str:
    """The button, its words (JSON in an escaped attribute: no text becomes markup or
    script) and the script that copies the page's address when it is clicked."""
    words = html.escape(json.dumps({"label": label, "done": done, "failed": failed}),
                        quote=True)
    return (f'{_STYLE % {"cls": BUTTON_CLASS}}'
            f'<button type="button" class="{BUTTON_CLASS}" data-words="{words}" '
            f'title="{html.escape(help_text, quote=True)}">{html.escape(label)}</button>'
            f'{_SCRIPT % {"cls": BUTTON_CLASS}}')


def copy_link_button() -> None:
    """The button, in the page's language."""
    st.html(button_html(tr("app.copy_link"), tr("app.link_copied"), tr("app.link_not_copied"),
                        tr("app.copy_link_help")), unsafe_allow_javascript=True)
