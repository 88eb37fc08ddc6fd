"""The one exception the package raises (nnt.Error), with a code after nnt_error.h."""


class Error(ValueError):
    """A file nnt cannot use, an argument it cannot take, or a command that failed (a ValueError).

    ``code`` says which, after the C library's status codes (nnt_error.h): ``"EFORMAT"`` for a
    malformed or truncated file, ``"EIO"`` for one that cannot be read or written, ``"EINVAL"`` for
    a bad argument, ``"ECHECK"`` for a failed verification, ``"ENUMERIC"``, ``"ENOMEM"``.
    ``exit_code`` is what the ``nnt`` executable would exit with (2 for bad input and I/O, 1 for a
    failed check). ``str(e)`` is nnt's one-line message.
    """

    def __init__(self, message, code="EFORMAT", exit_code=None):
        super().__init__(message)
        self.code = code
        self.exit_code = exit_code if exit_code is not None else (1 if code in ("ECHECK", "ENUMERIC") else 2)
