"""The package version, recorded in every signature (field ``v``); re-exported as
``mwzrepro.__version__``.

>>> __version__
'0.1.0'
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
