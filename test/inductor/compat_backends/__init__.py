"""A corpus of out-of-tree backends written the way vendors write them for
stock torch 2.13 (``vendor213``) and for upstream torch 2.15 (``vendor215``),
in their idioms only and without this series' new entry points, both on the
fake PrivateUse1 device of ``extension_backends``. Each is imported in a fresh
process (PrivateUse1 can be renamed once per process) by
``test/inductor/test_backend_compat.py``.
"""
