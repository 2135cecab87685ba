"""Evaluation: outcomes against the labels.

In: chunks, decisions, labelled questions. Out: where each answer lies, a diagnosis
per question, metrics, a calibrated floor, and the ``Analysis``/``Comparison``/
``SweepResult`` the pipeline and the experiments return.
"""
