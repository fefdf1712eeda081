"""The parameter contract as the tests read it: each public callable's declaration, taken
from the callable itself (``parameter_constraints``, set where ``validate_params`` decorates
it beside its code), keyed as scikit-learn's tests key them: ``"function"``, ``"Class"`` (its
constructor) and ``"Class.method"``; and the command line's options (``"report"``)."""

import inspect

import sklearn_confusion_ext as sce
from sklearn_confusion_ext._cli import REPORT_OPTIONS


def declaration_of(obj):
    """The declaration of a decorated callable (a class: of its constructor), else None."""
    if inspect.isclass(obj):
        obj = obj.__init__
    return getattr(obj, "parameter_constraints", None)


def _public_declarations():
    declarations, renamed = {}, {}
    for name in sce.__all__:
        obj = getattr(sce, name)
        declared = declaration_of(obj)
        if declared is not None:
            declarations[name] = declared
            renamed[name] = getattr(obj.__init__ if inspect.isclass(obj) else obj,
                                    "renamed_parameters", {})
        if not inspect.isclass(obj):
            continue
        for attribute in dir(obj):
            if attribute.startswith("_"):
                continue
            member = inspect.getattr_static(obj, attribute)
            member = getattr(member, "__func__", member)
            declared = getattr(member, "parameter_constraints", None)
            if declared is not None:
                declarations[f"{name}.{attribute}"] = declared
                renamed[f"{name}.{attribute}"] = getattr(member, "renamed_parameters", {})
    return declarations, renamed


# Every public declaration, and the command line's (its options are no public callable).
# RENAMED: each callable's former parameter names -> their names (FutureWarning aliases).
PUBLIC, RENAMED = _public_declarations()
CLI_ONLY = ("report",)
DECLARATIONS = {**PUBLIC, "report": REPORT_OPTIONS}
