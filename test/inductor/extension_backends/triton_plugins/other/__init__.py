"""The ``other`` Triton backend plugin (see ``..``)."""
