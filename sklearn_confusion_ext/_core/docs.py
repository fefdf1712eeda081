"""Parameter docs shared by several functions or Display methods, written once and filled in."""

import inspect


def fill_doc(docs):
    """A decorator filling the ``%(name)s`` fields of a docstring with ``docs[name]``."""

    def fill(documented):
        documented.__doc__ = inspect.cleandoc(documented.__doc__) % docs
        return documented

    return fill
