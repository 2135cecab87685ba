"""Inputs: what the user brings, checked.

In: pasted text, uploaded or named files (txt, md, pdf, docx, html), questions (typed or
CSV). Out: a ``Corpus`` of sources with text, ``LabelledQuestion``s, ``InputError``s that
say what to change, and the limits every later stage checks against. The app, the CLI and
the Python API read documents through one policy: ``ragviz.inputs.reading.read_corpus``.
"""
