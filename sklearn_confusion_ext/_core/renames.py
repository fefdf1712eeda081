"""Former names, kept one release: what a renamed parameter, attribute or constructor
says when it is used, and how it still works.

Every rename of the library goes through here, so every one warns ``FutureWarning`` with
the same words, naming the former name, the new one and the release that drops it:

* a parameter: :func:`~._core.params.validate_params`'s ``renamed={old: new}`` passes
  the keyword on under its new name (:func:`renamed_keywords`);
* an attribute of a result or a Display: ``_renamed_fields = {old: new}`` on a
  :class:`RenamedAttributes` class (every result derives from it);
* a Display's constructor: :func:`renamed_constructor`.

``tests/registry/test_deprecations.py`` finds every declared rename and calls it.
"""

import warnings

# The release that renamed parameters and result fields, and the one that drops the names.
RENAMED_IN, REMOVED_IN = "0.1", "0.2"


def renamed_message(where, old, new, what="parameter"):
    """The ``FutureWarning`` of a former name: what it is now and when it goes."""
    return (f"{where}: the {what} {old!r} was renamed {new!r} in {RENAMED_IN} and will be "
            f"removed in {REMOVED_IN}; use {new!r}.")


def renamed_keywords(where, kwargs, renamed):
    """``kwargs`` with each former name of ``renamed`` (old -> new) replaced by its new one,
    warning once for each; both names given is a ``TypeError``."""
    kwargs = dict(kwargs)
    for old, new in renamed.items():
        if old not in kwargs:
            continue
        if new in kwargs:
            raise TypeError(f"{where}: pass {new!r} only; {old!r} is its former name (renamed "
                            f"in {RENAMED_IN}, removed in {REMOVED_IN}).")
        warnings.warn(renamed_message(where, old, new), FutureWarning, stacklevel=4)
        kwargs[new] = kwargs.pop(old)
    return kwargs


class RenamedAttributes:
    """An object whose attributes were renamed: ``_renamed_fields`` maps each former name
    to its name, and the former still reads, with a ``FutureWarning``."""

    _renamed_fields = {}

    def __getattr__(self, name):
        # Only names no attribute has reach here: a former attribute name, or an error.
        new = type(self)._renamed_fields.get(name)
        if new is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        warnings.warn(renamed_message(type(self).__name__, name, new, "attribute"),
                      FutureWarning, stacklevel=2)
        return getattr(self, new)


def renamed_constructor(old, new, arguments=None, target=None):
    """The classmethod ``old``, the former name of the constructor ``new`` (of a Display).

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
