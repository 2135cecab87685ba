"""Share: work that leaves the session and comes back.

In: a document, questions, two configurations, the retrieval settings. Out: workspace
files and links (and back, checked), and the bundled samples (ready workspaces).
"""
