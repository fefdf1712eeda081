"""The former names of the Displays' constructors, kept one release: each warns
``FutureWarning`` naming its replacement and builds the same Display through it.

A Display lists them in ``_renamed_constructors`` (former name -> constructor), where the
tests (``tests/registry/test_deprecations.py``) find every one to call."""

import warnings

from .._core.params import REMOVED_IN, RENAMED_IN, renamed_message


def renamed_constructor(old, new, arguments=None, target=None):
    """The classmethod ``old``, the former name of the constructor ``new``.

    ``arguments(*args, **kwargs) -> (args, kwargs)`` maps a call of the former signature
    onto the constructor's (None: the same arguments). Its arguments are checked by the
    constructor it calls, under the constructor's names. ``target`` names the classmethod
    called instead of ``new`` where the former constructor drew what ``new`` draws only
    with other arguments (it checks them itself).
    """

    def alias(cls, *args, **kwargs):
        warnings.warn(renamed_message(cls.__name__, old, new, what="constructor"),
                      FutureWarning, stacklevel=2)
        if arguments is not None:
            args, kwargs = arguments(*args, **kwargs)
        return getattr(cls, target or new)(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = (f"Deprecated: use :meth:`{new}`.\n\n``{old}`` was renamed ``{new}`` "
                     f"in {RENAMED_IN} and will be removed in {REMOVED_IN}; it warns "
                     f"``FutureWarning`` and builds the same Display with :meth:`{new}`.\n")
    alias.renamed_constructor = new
    return classmethod(alias)


class RenamedAttributes:
    """A Display whose attributes were renamed: ``_renamed_fields`` maps each former name to
    its name, and the former still reads, with a ``FutureWarning`` (as the results'
    ``_renamed_fields``, ``_core/results.py``)."""

    _renamed_fields = {}

    def __getattr__(self, name):
        # Only names no attribute has reach here: a former attribute name, or an error.
        new = type(self)._renamed_fields.get(name)
        if new is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        warnings.warn(renamed_message(type(self).__name__, name, new, "attribute"),
                      FutureWarning, stacklevel=2)
        return getattr(self, new)
