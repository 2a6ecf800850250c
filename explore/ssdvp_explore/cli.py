"""Command line: python3 -m ssdvp_explore {sweep,list,table,plot,reproduce,render} ... (docs/exploration.md)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import REPO_ROOT
from .runner import RunnerError, binary_identity, default_results, is_done, iss_firmware, point_dir, read_status, \
    resolve_binary, run_sweep
from .sweep import Point, SweepError, load_sweep
from .table import build_table, load_histograms, load_timeseries, write_csv


def _common(p: argparse.ArgumentParser, sweep: bool = True):
    if sweep:
        p.add_argument("sweep", help="sweep file (YAML)")
    p.add_argument("--results", help="cache directory of the sweep's points (default: <root>/results/<name>)")
    p.add_argument("--ssdvp", help="simulator binary (default: $SSDVP_BIN, else <root>/build/platform/ssdvp)")
    p.add_argument("--root", help="working directory of ssdvp; base/trace paths resolve here "
                                  "(default: the git checkout holding the sweep file)")


def _run_opts(p: argparse.ArgumentParser):
    p.add_argument("-j", "--jobs", type=int, default=None, help="local parallel runs (default: all cores)")
    p.add_argument("--scheduler", help="run the points on Dask: a scheduler address (tcp://host:8786), or "
                   "local[:N] to start a local cluster of N worker processes (default N: all cores)")
    p.add_argument("--force", action="store_true", help="rerun every point, ignoring the cache")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (periodic lines only)")


def _scan_points(results: Path) -> list[Point]:
    """Points from the cache directory itself (when no binary is at hand to recompute hashes)."""
    pts = []
    for pj in sorted(results.glob("*/point.json")):
        try:
            rec = json.loads(pj.read_text())
        except ValueError:
            continue
        pts.append(Point(index=rec.get("index", 0), overrides=rec.get("overrides", {}), config=rec.get("config", {}),
                         files=rec.get("files", {}), hash=rec.get("hash", pj.parent.name)))
    return sorted(pts, key=lambda p: (p.index, p.hash))


def _points(args, sweep):
    """(points, results dir, version) for table/plot/list: recomputed from the binary, else scanned."""
    results = Path(args.results) if args.results else default_results(sweep)
    try:
        binary = resolve_binary(args.ssdvp, sweep.root)
    except RunnerError as e:
        print(f"ssdvp-explore: {e}; listing every cached point in {results} instead", file=sys.stderr)
        return _scan_points(results), results, None
    version = binary_identity(binary)
    return sweep.points(version, firmware=iss_firmware(binary, sweep.root)), results, version


def cmd_sweep(args) -> int:
    sweep = load_sweep(args.sweep, root=args.root)
    binary = resolve_binary(args.ssdvp, sweep.root)
    rep = run_sweep(sweep, binary, results=Path(args.results) if args.results else None, jobs=args.jobs,
                    scheduler=args.scheduler, force=args.force, progress=False if args.no_progress else None,
                    progress_interval_s=args.progress_interval, validate=not args.no_validate)
    table = build_table(sweep, rep.points, rep.results)
    out = write_csv(table, Path(args.table) if args.table else rep.results / "table.csv")
    print(f"sweep {sweep.name}: {len(rep.points)} points ({rep.cached} cached, {rep.ran} run, "
          f"{len(rep.failures)} failed); table: {out}", file=sys.stderr)
    for pt, st in rep.failures:
        print(f"  FAILED {pt.hash[:12]} {pt.label(sweep.axis_keys)}: {st['error']}\n"
              f"         stderr: {point_dir(rep.results, pt) / 'stderr.txt'}", file=sys.stderr)
    return 1 if rep.failures else 0


def cmd_list(args) -> int:
    sweep = load_sweep(args.sweep, root=args.root)
    points, results, _ = _points(args, sweep)
    for p in points:
        st = read_status(point_dir(results, p))
        state = "cached" if is_done(point_dir(results, p)) else (st or {}).get("status", "todo")
        print(f"{p.hash[:12]}  {state:10s}  {p.label(sweep.axis_keys) or '(base)'}")
    return 0


def cmd_table(args) -> int:
    sweep = load_sweep(args.sweep, root=args.root)
    points, results, _ = _points(args, sweep)
    table = build_table(sweep, points, results, include_missing=args.include_missing)
    if args.output in (None, "-"):
        table.to_csv(sys.stdout, index=False)
    else:
        write_csv(table, Path(args.output))
        print(f"table: {len(table)} rows x {len(table.columns)} columns -> {args.output}", file=sys.stderr)
    return 0


def cmd_plot(args) -> int:
    import pandas as pd

    from .plots import standard_figures
    ts = hist = None
    if args.table:
        table = pd.read_csv(args.table, keep_default_na=False, na_values=[""])
        if args.results:
            ts = load_timeseries(Path(args.results), table)
            hist = load_histograms(Path(args.results), table)
    elif args.sweep:
        sweep = load_sweep(args.sweep, root=args.root)
        points, results, _ = _points(args, sweep)
        table = build_table(sweep, points, results)
        ts = load_timeseries(results, table)
        hist = load_histograms(results, table)
    else:
        print("ssdvp-explore plot: give a sweep file or --table CSV", file=sys.stderr)
        return 2
    from .plots import merged_keys
    merged = [k for k in merged_keys(table, args.by) if k != args.facet]
    if merged and not args.average:
        print(f"ssdvp-explore plot: the table varies {', '.join(merged)} within one workload and one --by value "
              f"({args.by}): one point would average those runs. Compare one of them (--by KEY), draw one set of "
              "figures per value (--facet KEY), or pass --average to average them (the figures then merge them)",
              file=sys.stderr)
        return 2
    facets = [(None, table)]
    if args.facet:
        if args.facet not in table:
            print(f"ssdvp-explore plot: --facet {args.facet}: no such column", file=sys.stderr)
            return 2
        facets = [(v, table[table[args.facet].astype(str) == str(v)]) for v in dict.fromkeys(table[args.facet])]
    figs = {}
    for v, sub in facets:
        out = Path(args.output) / (f"{args.facet.removeprefix('config.')}={v}" if args.facet else "")
        for name, paths in standard_figures(sub, out, timeseries=ts, by=args.by, baseline=args.baseline,
                                            histograms=hist).items():
            figs[f"{name}" + (f" [{args.facet}={v}]" if args.facet else "")] = paths
    if merged:
        print(f"ssdvp-explore plot: --average: each point averages the runs over {', '.join(merged)}", file=sys.stderr)
    for name, paths in figs.items():
        print(f"{name}: {', '.join(map(str, paths))}")
    if not figs:
        print("ssdvp-explore plot: no figure: no successful run with the needed columns", file=sys.stderr)
        return 1
    return 0


def cmd_reproduce(args) -> int:
    from .pages import pages
    from .reproduce import reproduce
    if args.list:
        for name, page in sorted(pages().items()):
            print(f"{name:20s} {page.sweep:40s} {page.title}")
        return 0
    root = Path(args.root).resolve() if args.root else REPO_ROOT
    binary = resolve_binary(args.ssdvp, root)
    done = reproduce(args.pages or None, binary, out_dir=Path(args.out) if args.out else None, root=root,
                     results=Path(args.results) if args.results else None, jobs=args.jobs,
                     scheduler=args.scheduler, force=args.force, progress=False if args.no_progress else None,
                     allow_dirty=args.allow_dirty)
    return 1 if any(rep.failures for _, rep in done) else 0


def cmd_render(args) -> int:
    """Re-render pages from the data committed in their folders (no simulation)."""
    from .pages import pages
    from .render import render
    root = Path(args.root).resolve() if args.root else REPO_ROOT
    data = Path(args.data) if args.data else root / "docs" / "results"
    for name in args.pages or sorted(pages()):
        md = render(name, data_dir=data, out_dir=Path(args.out) if args.out else data, root=root, draw=args.draw)
        print(f"render: wrote {md}", file=sys.stderr)
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="ssdvp-explore", description="Design-space exploration sweeps over ssdvp.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("sweep", help="run every point of a sweep not already cached, then write the table")
    _common(p)
    _run_opts(p)
    p.add_argument("--table", help="where to write the table (default: <results>/table.csv)")
    p.add_argument("--progress-interval", type=float, default=10.0, help="seconds between progress lines "
                   "when stderr is not a terminal")
    p.add_argument("--no-validate", action="store_true", help="do not check the swept keys against `ssdvp params`")
    p.set_defaults(fn=cmd_sweep)

    p = sub.add_parser("list", help="list the points of a sweep, their hash and cache state")
    _common(p)
    p.set_defaults(fn=cmd_list)

    p = sub.add_parser("table", help="write the results table (CSV) from the cache")
    _common(p)
    p.add_argument("-o", "--output", help="CSV file (default: stdout)")
    p.add_argument("--include-missing", action="store_true", help="also a row (status missing) per point not run")
    p.set_defaults(fn=cmd_table)

    p = sub.add_parser("plot", help="draw the standard figures (PNG + SVG)")
    _common(p, sweep=False)
    p.add_argument("sweep", nargs="?", help="sweep file (or use --table)")
    p.add_argument("--table", help="a results table CSV instead of a sweep (bandwidth and real CDFs need --results too)")
    p.add_argument("-o", "--output", default="figures", help="output directory (default: ./figures)")
    p.add_argument("--by", default="config.ftl.gc.policy", help="compared column (default: config.ftl.gc.policy)")
    p.add_argument("--baseline", help="value of --by that normalized response time divides by (default: first)")
    p.add_argument("--facet", help="one set of figures per value of this column (in <output>/<key>=<value>/)")
    p.add_argument("--average", action="store_true", help="average runs that differ in a key other than --by, "
                   "the workload, --facet and the seeds (by default that is an error naming the keys)")
    p.set_defaults(fn=cmd_plot)

    p = sub.add_parser("reproduce", help="regenerate result pages under docs/results/ (all, or the named ones)")
    p.add_argument("pages", nargs="*", help="page names (default: every registered page)")
    p.add_argument("--list", action="store_true", help="list the registered pages")
    p.add_argument("--out", help="pages directory (default: <root>/docs/results)")
    p.add_argument("--results", help="cache directory (default: <root>/results/<sweep name>)")
    p.add_argument("--ssdvp", help="simulator binary (default: $SSDVP_BIN, else <root>/build/platform/ssdvp)")
    p.add_argument("--root", help="repository root (default: the checkout holding explore/)")
    p.add_argument("--allow-dirty", action="store_true", help="reproduce even from uncommitted changes or a binary "
                   "built from another commit (the page's provenance says so)")
    _run_opts(p)
    p.set_defaults(fn=cmd_reproduce)

    p = sub.add_parser("render", help="re-render result pages from their committed data (table.csv, "
                       "provenance.json) without running anything")
    p.add_argument("pages", nargs="*", help="page names (default: every registered page)")
    p.add_argument("--data", help="pages directory holding the data (default: <root>/docs/results)")
    p.add_argument("--out", help="where to write the pages (default: --data); the data folders are copied there")
    p.add_argument("--root", help="repository root (default: the checkout holding explore/)")
    p.add_argument("--draw", action="store_true", help="also redraw the figures a renderer draws itself from the "
                   "table (the RAID pages'); the standard figures need the runs' time series: `reproduce`")
    p.set_defaults(fn=cmd_render)
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.fn(args)
    except (SweepError, RunnerError, KeyError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"ssdvp-explore: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ssdvp-explore: interrupted (finished points are cached)", file=sys.stderr)
        return 130
