"""The statistical results' common form: frozen dataclasses whose fields are checked on
construction, and which unpack like scipy.stats' results (``statistic, pvalue = result``).
"""

from dataclasses import dataclass

from .._core.params import validate_params


def _result(**options):
    """A frozen dataclass whose constructor checks its fields against ``PARAMETERS``."""

    def decorate(cls):
        cls = dataclass(frozen=True, **options)(cls)
        cls.__init__ = validate_params(cls.__name__)(cls.__init__)
        return cls

    return decorate


class _UnpacksLikeScipy:
    """Unpacks like scipy's results: ``statistic, pvalue = result``.

    ``_unpacked`` names the attributes the tuple holds; the others are attributes only,
    as ``df`` of ``scipy.stats.ttest_ind``'s result.
    """

    _unpacked = ("statistic", "pvalue")

    def __iter__(self):
        return iter(tuple(getattr(self, name) for name in self._unpacked))

    def __len__(self):
        return len(self._unpacked)

    def __getitem__(self, index):
        return tuple(self)[index]
