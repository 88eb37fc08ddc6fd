"""The one exception the package raises (nnt.Error), with a code after nnt_error.h."""


class Error(ValueError):
    """A file nnt cannot use, or an argument it cannot take (a ValueError).

    ``code`` says which, after the C library's status codes (nnt_error.h): ``"EFORMAT"`` for a
    malformed or truncated file, ``"EIO"`` for one that cannot be read, ``"EINVAL"`` for a bad
    argument (an unknown network kind, a wrong input shape). ``str(e)`` is one line naming the file.
    """

    def __init__(self, message, code="EFORMAT"):
        super().__init__(message)
        self.code = code
