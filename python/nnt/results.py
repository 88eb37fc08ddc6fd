"""A run's result tables as pandas DataFrames (nnt.read_results)."""
import os
import sqlite3

from ._errors import Error


def read_results(path):
    """Every table of the run folder ``path``: each CSV (key: its path relative to the folder,
    without .csv) and each table of results.sqlite (key: "results.sqlite:<table>"), as DataFrames
    whose columns carry names, not number codes."""
    import pandas as pd

    if not os.path.isdir(path):
        raise Error(f"{path} is not a folder of results", "EIO")
    out = {}
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for f in sorted(files):
            full = os.path.join(root, f)
            rel = os.path.relpath(full, path)
            if f.endswith(".csv"):
                try:
                    out[rel[:-4]] = pd.read_csv(full)
                except (OSError, ValueError) as e:
                    raise Error(f"{full}: cannot read the table ({e})", "EFORMAT") from None
            elif f == "results.sqlite":
                out.update(_sqlite_tables(full, rel))
    return out


def _sqlite_tables(full, rel):
    import pandas as pd

    try:
        con = sqlite3.connect(f"file:{full}?mode=ro", uri=True)
        try:
            names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
            tables = {n: pd.read_sql_query(f'SELECT * FROM "{n}"', con) for n in names}
        finally:
            con.close()
    except (sqlite3.Error, pd.errors.DatabaseError) as e:
        raise Error(f"{full}: cannot read the database ({e})", "EFORMAT") from None
    # a coded column (the sweep's table "codes": col, code, name) is given by its names
    codes = tables.get("codes")
    if codes is not None and "points" in tables:
        points = tables["points"]
        for col, rows in codes.groupby("col"):
            if col in points.columns:
                points[col] = points[col].map(dict(zip(rows.code, rows.name))).fillna(points[col])
    return {f"{rel}:{n}": t for n, t in tables.items()}
