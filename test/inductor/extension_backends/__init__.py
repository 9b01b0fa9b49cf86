"""In-tree fake out-of-tree backends used by the Inductor tests."""
