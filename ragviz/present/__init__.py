"""Present: facts to sentences, numbers and documents (en and pt-BR).

In: results of the evaluation. Out: sentences and formatted numbers, the highlighted
document (HTML, every user text escaped), the HTML report, CSV exports, the colours.
"""
