"""Loading-time check of ``params.yaml`` against ``workflow/schemas/params.schema.yaml``.

The Snakefile validates the configuration with Snakemake's ``validate`` (which also fills in
each key's default); :func:`error_line` turns its error into one line that names the key::

    params.yaml: inform.fuzzy_threshold: 101 is greater than the maximum of 100

The schema is generated from the parameter models by ``make_params_schema.py``.
"""

from __future__ import annotations

#: The schema, relative to the workspace (and to the Snakefile).
SCHEMA = "workflow/schemas/params.schema.yaml"


def error_line(exc: BaseException, source: str = "params.yaml") -> str:
    """One line for a failed validation: ``<source>: <dotted key>: <reason>``. ``exc`` is the
    jsonschema ``ValidationError`` or an exception raised while handling one (Snakemake
    wraps it in a ``WorkflowError``).

    >>> from jsonschema import Draft202012Validator
    >>> schema = {"type": "object", "properties": {"inform": {"type": "object",
    ...           "properties": {"fuzzy_threshold": {"type": "integer", "maximum": 100}}}}}
    >>> err = next(Draft202012Validator(schema).iter_errors({"inform": {"fuzzy_threshold": 101}}))
    >>> error_line(err)
    'params.yaml: inform.fuzzy_threshold: 101 is greater than the maximum of 100'
    """
    err: BaseException | None = exc
    while err is not None and not hasattr(err, "absolute_path"):
        err = err.__cause__ or err.__context__
    if err is None:
        return f"{source}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    path = ".".join(str(p) for p in err.absolute_path) or "(top level)"
    message = " ".join(str(err.message).split())
    return f"{source}: {path}: {message}"
