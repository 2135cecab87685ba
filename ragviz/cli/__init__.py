"""The ``ragviz`` command.

In: command-line arguments, files, standard input. Out: chunks, scores, diagnoses,
calibration and reports as text or JSON; ``ragviz app`` starts the explorer.
"""
