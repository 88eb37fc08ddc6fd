"""From a fresh clone to a plot of a qSTR sweep, notebook style (docs/python.md; run by the tests).

    make build && PYTHONPATH=python /usr/bin/python3 examples/python/qstr_sweep_plot.py [OUT.png]

Runs seed 001's sample-complexity sweep for the transformer and the FFN at the quick preset in
this process (nnt.run: the CLI's own driver), reads its table as a DataFrame, fits the log-log
slope of samples against N for each model, and draws both curves with matplotlib (when it is
installed; the table and slopes are printed either way). The full Figure 1a protocol is the same
call without quick=True (docs/qstr.md; hours on a laptop).
"""
# %% 0. setup
import os
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
import nnt  # noqa: E402

work = tempfile.mkdtemp(prefix="qstr_sweep-")
png = sys.argv[1] if len(sys.argv) > 1 else os.path.join(work, "samples.png")

# %% 1. the sweeps: one folder each, resumable (resume=True continues an interrupted one)
tables = {}
for model in ("tr", "ffn"):
    r = nnt.run("qstr sweep", model=model, quick=True, N=[2, 4, 8], out=os.path.join(work, model))
    tables[model] = r.tables["samples"]
print(tables["tr"].head())

# %% 2. medians per N and the log-log slope (samples ~ N^slope)
slopes = {}
for model, t in tables.items():
    med = t.groupby("N").samples.median()
    slopes[model] = np.polyfit(np.log(med.index.values), np.log(med.values), 1)[0]
    print(f"{model}: median samples {dict(med)}; log-log slope {slopes[model]:.2f}")

# %% 3. the plot
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed: no plot (Debian: python3-matplotlib)")
else:
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for model, t in tables.items():
        med = t.groupby("N").samples.median()
        ax.loglog(med.index, med.values, "o-", label=f"{model} (slope {slopes[model]:.2f})")
    ax.set_xticks(sorted(tables["tr"].N.unique()), labels=[str(n) for n in sorted(tables["tr"].N.unique())])
    ax.minorticks_off()
    ax.set_xlabel("N (input length)")
    ax.set_ylabel("training samples to the threshold")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"plot: {png}")
