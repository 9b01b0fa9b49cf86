"""Two minimal Triton backend plugins, ``extension_device`` and ``other``,
found by Triton through the ``triton.backends`` entry points of
``../site-triton-plugins``: what a vendor's Triton distribution registers, cut
down to what selecting a backend needs. Both drivers report themselves active,
as on a machine with two Triton backends (CUDA and a vendor's), where Triton
has no process-wide default driver. They compile nothing.

Triton imports ``<package>.compiler`` and ``<package>.driver`` of each entry
point and takes the one concrete ``BaseBackend`` / ``DriverBase`` subclass
found in each module.
"""
