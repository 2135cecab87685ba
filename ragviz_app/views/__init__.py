"""One module per view of the explorer (one per tab, the guided replay, the workspace)."""
