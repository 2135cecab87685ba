"""Slider numbers in the page's language. Streamlit writes a slider's value and its ends with
sprintf, always with a decimal point (its "localized" format follows the browser, not the
page's language), so a Portuguese page showed 0.19 on the floor beside charts saying 0,19.
A few lines of the page's own JavaScript write the decimal sign of the page's language into
those numbers as Streamlit draws them: the text node is changed in place, so the next value
Streamlit writes into it while the thumb is dragged is changed again."""

from __future__ import annotations

import json

import streamlit as st

from ragviz.i18n import number_symbols

SLIDER_NUMBERS = ('[data-testid="stSliderThumbValue"] p, '
                  '[data-testid="stSliderTickBar"] p')

_SCRIPT = """<script>
(() => {
  window.rvDecimalSign = %(sign)s;
  if (window.rvDecimalWatch) { window.rvDecimalWatch(); return; }
  const pattern = /^(-?[0-9]+)[.,]([0-9]+)$/;
  const write = () => {
    for (const p of document.querySelectorAll(%(selector)s)) {
      const node = p.firstChild;
      if (!node || node.nodeType !== Node.TEXT_NODE) continue;
      const found = pattern.exec(node.nodeValue);
      const wanted = found && found[1] + window.rvDecimalSign + found[2];
      if (found && node.nodeValue !== wanted) node.nodeValue = wanted;
    }
  };
  window.rvDecimalWatch = write;
  new MutationObserver(write).observe(document.body,
    {childList: true, subtree: true, characterData: true});
  write();
})();
</script>"""


def decimal_script(language: str) -> str:
    """The script for a page in ``language`` (run again on every run: the sign follows a
    language switch)."""
    return _SCRIPT % {"sign": json.dumps(number_symbols(language)["decimal"]),
                      "selector": json.dumps(SLIDER_NUMBERS)}


def slider_numbers(language: str) -> None:
    st.html(decimal_script(language), unsafe_allow_javascript=True)
