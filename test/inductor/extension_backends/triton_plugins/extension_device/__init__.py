"""The ``extension_device`` Triton backend plugin (see ``..``)."""
