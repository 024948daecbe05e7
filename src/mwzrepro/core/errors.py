"""Errors that the CLI reports as one clear line (no traceback): bad input data, bad
configuration, failed downloads, checksum mismatches, schema violations, incompatible
signatures. Kept free of heavy imports so that every command starts fast.

Every error the library raises for bad input or configuration derives from
:class:`MwzreproError`; the CLI prints it as ``mwzrepro: error: <message>`` and exits 1.
Messages name the file, and where known the dialogue and turn:

>>> str(InputError("preds.json: dialogue SNG0073 turn 2: 'response' is missing"))
"preds.json: dialogue SNG0073 turn 2: 'response' is missing"
>>> issubclass(SchemaError, MwzreproError)
True
"""

from __future__ import annotations


class MwzreproError(Exception):
    """Base class of every error raised for bad input data or bad configuration."""


class DownloadError(MwzreproError, RuntimeError):
    """A source could not be fetched or failed verification; names file, URL/path and ids."""


class InputError(MwzreproError, ValueError):
    """A user-supplied file (e.g. predictions) is malformed; names file, dialogue and turn."""


class IngestError(MwzreproError, ValueError):
    """Malformed source data; the message names the file, dialogue and turn."""


class SchemaError(MwzreproError, ValueError):
    """A DataFrame does not have the columns, types or key its table declares."""


class ConfigError(MwzreproError, ValueError):
    """A parameter value is invalid; the message names the key (``inform.fuzzy_threshold``)."""


#: Exception types shown to the user as ``mwzrepro: error: <message>``.
UserError = (MwzreproError, FileNotFoundError)
