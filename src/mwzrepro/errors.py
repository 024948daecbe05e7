"""Errors that the CLI reports as one clear line (no traceback): bad input data, failed
downloads, checksum mismatches, schema violations. Kept free of heavy imports so that every
command starts fast."""

from __future__ import annotations


class DownloadError(RuntimeError):
    """A source could not be fetched or failed verification; names file, URL/path and ids."""


class InputError(ValueError):
    """A user-supplied file (e.g. predictions) is malformed; names file, dialogue and turn."""


class IngestError(ValueError):
    """Malformed source data; the message names the file, dialogue and turn."""


class SchemaError(ValueError):
    """A DataFrame does not have the columns, types or key its table declares."""


#: Exception types shown to the user as ``mwzrepro: error: <message>``.
UserError = (DownloadError, InputError, IngestError, SchemaError, FileNotFoundError)
