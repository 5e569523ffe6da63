"""The `plainview` command: `extract` pages as text, HTML or JSON, and `eval` extractors."""

from __future__ import annotations

import argparse
import html
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Literal, TypeVar, get_args

from addon import __version__
from addon.cli import proxy_command
from addon.cli.sources import Page, ReadError, read_source
from addon.core import ALGORITHMS, Article, ExtractParams, Skip, extract, params_for
from addon.core.paper.combine import extract_pipeline
from addon.core.paper.pipelines import Pipeline, SpecError, parse_pipeline, spec_text
from addon.core.params import DEFAULT_ALGORITHM, Filter, Smoothing, TitleMethod
from addon.evaluation import run as evaluation
from addon.evaluation import testpages
from addon.evaluation.readability_js import PeerFailed
from addon.job.budget import OverBudget, time_budget

PROG = "plainview"
# The repository's checkout sits beside the shared data folder.
DEFAULT_DATASET = Path(__file__).resolve().parents[3] / "shared/datasets/wcxb-dev"
FORMATS = ("text", "html", "json", "jsonl")
# Command-line names of the parameter overrides, as Namespace attributes.
OVERRIDES = ("filter", "gap", "smoothing", "title_method", "max_bytes", "threshold")
# Seconds one page may take, as the proxy's own default: past it the page is skipped.
DEFAULT_TIME_BUDGET = 2.0

Result = Article | Skip
# The two dataset layouts `plainview eval` reads, told apart by their files.
Layout = Literal["wcxb", "testpages"]
_Number = TypeVar("_Number", int, float)


@dataclass(frozen=True, slots=True)
class Command:
    """One subcommand: its name, one-line help, how it adds its options, what it runs."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit status."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except BrokenPipeError:
        return _reader_gone()


# The exit status of a command its reader stopped (128 + SIGPIPE), as shells report it.
EXIT_READER_GONE = 141


def _reader_gone() -> int:
    """Stop quietly once the reader of standard output has gone (`plainview extract | head`)."""
    # Python flushes stdout again at exit and would fail once more on the closed
    # pipe: point it at the null device first (the recipe of Python's signal docs).
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_READER_GONE


def build_parser(commands: Sequence[Command] | None = None) -> argparse.ArgumentParser:
    """Build the parser with one subparser per registered command."""
    parser = argparse.ArgumentParser(prog=PROG, description="Reader-view extraction.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS if commands is None else commands:
        subparser = subparsers.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(subparser)
        subparser.set_defaults(run=command.run)
    return parser


def add_algorithm_arguments(parser: argparse.ArgumentParser, *, repeatable: bool) -> None:
    """Add the options that pick an algorithm and override its parameters."""
    group = parser.add_argument_group("algorithm")
    if repeatable:
        group.add_argument(
            "--algorithm", action="append", choices=sorted(ALGORITHMS),
            help=f"algorithm to run; repeat for several (default: {DEFAULT_ALGORITHM})",
        )  # fmt: skip
    else:
        group.add_argument(
            "--algorithm", choices=sorted(ALGORITHMS), default=DEFAULT_ALGORITHM,
            help="algorithm to run (default: %(default)s)",
        )  # fmt: skip
    group.add_argument(
        "--filter", type=int, choices=get_args(Filter),
        help="hyperlink filter (§4.6.1): 0 none, 1 drop anchors, 2 bare anchors, 3 placeholder",
    )  # fmt: skip
    group.add_argument(
        "--gap", type=_non_negative_int, metavar="N",
        help="add regions at most N lines away (Algorithm 1)",
    )  # fmt: skip
    group.add_argument("--smoothing", choices=get_args(Smoothing), help="diff smoothing formula")
    group.add_argument("--title-method", choices=get_args(TitleMethod), help="headline measure")
    group.add_argument(
        "--max-bytes", type=_positive_int, metavar="N", help="skip pages larger than N bytes"
    )
    group.add_argument(
        "--threshold", type=_non_negative_float, metavar="RHO",
        action="append" if repeatable else "store",
        help="BlockExtractor's density threshold (Algorithm 2; the paper's: 1.5)"
        + ("; repeat for several" if repeatable else ""),
    )  # fmt: skip


def add_pipeline_argument(parser: argparse.ArgumentParser, *, repeatable: bool) -> None:
    """Add --pipeline: a CombinE pipeline of algorithms (addon/core/paper/pipelines.py)."""
    parser.add_argument(
        "--pipeline", type=pipeline_spec, action="append" if repeatable else "store",
        metavar="SPEC",
        help="a pipeline of algorithms, e.g. serial(addanag-plus,r2l), parallel-and(danag,dana), "
        "parallel-or(danag,dana), vote2(addanag-plus,danag,dana); its filters run with their "
        "own parameters" + ("; repeat for several" if repeatable else ", instead of --algorithm"),
    )  # fmt: skip


def pipeline_spec(text: str) -> Pipeline:
    """Parse a pipeline spec, for argparse."""
    pipeline = parse_pipeline(text)
    if isinstance(pipeline, SpecError):
        raise argparse.ArgumentTypeError(f"{pipeline.message}: {text!r}")
    return pipeline


def params_from_args(algorithm: str, args: argparse.Namespace) -> ExtractParams:
    """Return an algorithm's parameters with the command line's overrides applied."""
    params = params_for(algorithm)
    danag = params.danag
    if args.filter is not None:
        danag = replace(danag, filter=args.filter)
    if args.gap is not None:
        danag = replace(danag, gap=args.gap)
    if args.smoothing is not None:
        danag = replace(danag, smoothing=args.smoothing)
    title = params.title
    if args.title_method is not None:
        title = replace(title, method=args.title_method)
    max_bytes = params.max_bytes if args.max_bytes is None else args.max_bytes
    blocks = params.blockextractor
    if blocks is not None and args.threshold is not None:
        blocks = replace(blocks, threshold=args.threshold)
    return replace(params, danag=danag, title=title, max_bytes=max_bytes, blockextractor=blocks)


def variant_name(algorithm: str, args: argparse.Namespace) -> str:
    """Name an algorithm with its overrides, e.g. `danag[gap=40]`."""
    # The threshold is BlockExtractor's: the other algorithms leave it unread.
    reads_threshold = params_for(algorithm).blockextractor is not None
    changed = [
        f"{name.replace('_', '-')}={getattr(args, name)}"
        for name in OVERRIDES
        if getattr(args, name) is not None and (name != "threshold" or reads_threshold)
    ]
    return f"{algorithm}[{','.join(changed)}]" if changed else algorithm


# -- extract ---------------------------------------------------------------------------


def add_extract_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of `plainview extract`."""
    parser.add_argument(
        "sources", nargs="+", metavar="SOURCE",
        help="an HTML file (.gz is decompressed), an http(s) URL, or - for standard input",
    )  # fmt: skip
    parser.add_argument(
        "--url", help="the page's URL for file and stdin sources, to resolve its links"
    )
    parser.add_argument(
        "--format", choices=FORMATS,
        help="output format (default: text for one source, jsonl for several; "
        "json prints one object for one source, an array for several)",
    )  # fmt: skip
    parser.add_argument(
        "--diagnostics", action="store_true", help="include diagnostics in json/jsonl output"
    )
    parser.add_argument(
        "--timeout", type=_positive_float, default=20.0, metavar="SECONDS",
        help="network timeout for URL sources (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--time-budget", type=_non_negative_float, default=DEFAULT_TIME_BUDGET,
        metavar="SECONDS",
        help="skip a page whose extraction takes longer; 0: no limit (default: %(default)s)",
    )  # fmt: skip
    add_algorithm_arguments(parser, repeatable=False)
    add_pipeline_argument(parser, repeatable=False)


def run_extract(args: argparse.Namespace) -> int:
    """Extract every source in turn; return 1 if any could not be read, 2 for bad options."""
    if args.pipeline is not None and any(getattr(args, name) is not None for name in OVERRIDES):
        _error("--pipeline takes no parameter overrides: its filters run with their own")
        return 2
    params = params_from_args(args.algorithm, args)
    sources: list[str] = args.sources
    output = args.format or ("text" if len(sources) == 1 else "jsonl")
    stdin = sys.stdin.buffer if "-" in sources and sys.stdin is not None else None
    failed = False
    records: list[dict[str, object]] = []
    header = output == "text" and len(sources) > 1
    for source in sources:
        page = read_source(
            source, max_bytes=params.max_bytes, url=args.url, timeout=args.timeout, stdin=stdin
        )
        if isinstance(page, ReadError):
            _error(f"{page.source}: {page.reason}")
            failed = True
            continue
        result, ms = timed_extract(page, params, budget=args.time_budget, pipeline=args.pipeline)
        if output == "json":
            records.append(full_record(page, result, ms, diagnostics=args.diagnostics))
        else:
            _emit(output, page, result, ms, diagnostics=args.diagnostics, header=header)
    if output == "json" and (records or len(sources) > 1):
        print(_dumps(records[0] if len(sources) == 1 else records, indent=1))
    return 1 if failed else 0


def timed_extract(
    page: Page, params: ExtractParams, *, budget: float = 0.0, pipeline: Pipeline | None = None
) -> tuple[Result, float]:
    """Extract one page within `budget` seconds (0: no limit) and measure the milliseconds;
    with a `pipeline`, by it instead of by `params`."""
    start = time.perf_counter()
    try:
        with time_budget(budget):
            result: Result = (
                extract(page.body, url=page.url, content_type=page.content_type, params=params)
                if pipeline is None
                else extract_pipeline(
                    page.body, pipeline, url=page.url, content_type=page.content_type
                )
            )
    except OverBudget:
        result = Skip(f"over the time budget ({budget:g} s)")
    return result, round((time.perf_counter() - start) * 1000, 3)


def _emit(
    output: str, page: Page, result: Result, ms: float, *, diagnostics: bool, header: bool
) -> None:
    """Print one source's result as a jsonl line, text or an HTML document."""
    if output == "jsonl":
        print(_dumps(summary_record(page, result, ms, diagnostics=diagnostics)))
        return
    if isinstance(result, Skip):
        _error(f"{page.source}: no article ({result.reason})")
        return
    if header:
        print(f"==> {page.source} <==")
    print(format_text(result) if output == "text" else format_html(result))


def summary_record(
    page: Page, result: Result, ms: float, *, diagnostics: bool
) -> dict[str, object]:
    """Describe one source's result in the fields of a jsonl line."""
    if isinstance(result, Skip):
        record: dict[str, object] = {
            "source": page.source, "url": page.url, "title": result.title, "text": "", "html": "",
            "lang": None, "dir": None, "readerable": False, "skip": result.reason, "ms": ms,
        }  # fmt: skip
    else:
        record = {
            "source": page.source, "url": result.url or page.url, "title": result.title,
            "text": result.text, "html": result.html, "lang": result.lang, "dir": result.dir,
            "readerable": result.readerable, "skip": None, "ms": ms,
        }  # fmt: skip
    if diagnostics:
        found = None if isinstance(result, Skip) else result.diagnostics
        record["diagnostics"] = None if found is None else asdict(found)
    return record


def full_record(page: Page, result: Result, ms: float, *, diagnostics: bool) -> dict[str, object]:
    """Describe one source's result with every field of the article."""
    record = summary_record(page, result, ms, diagnostics=diagnostics)
    if isinstance(result, Skip):
        extra: dict[str, object] = {
            "byline": None, "published": None, "site_name": None, "page_title": "",
            "word_count": 0, "blocks": [],
        }  # fmt: skip
    else:
        extra = asdict(result)
        del extra["diagnostics"]
        del extra["fingerprints"]  # the site memory's, asked for by the proxy only
        # A block's character counts serve the reader check; the JSON shows what it reads.
        extra["blocks"] = [
            {"kind": block.kind, "html": block.html, "text": block.text} for block in result.blocks
        ]
    return record | {key: value for key, value in extra.items() if key not in record}


def format_text(article: Article) -> str:
    """Render an article as its headline, a blank line, then its text."""
    return f"{article.title}\n\n{article.text}" if article.title else article.text


def format_html(article: Article) -> str:
    """Render an article as a minimal standalone HTML5 document."""
    title = html.escape(article.title)
    head_title = html.escape(article.title or article.page_title or "Untitled")
    lang = f' lang="{html.escape(article.lang)}"' if article.lang else ""
    if title and article.title_href:  # the page's headline was a link off the page
        title = f'<a href="{html.escape(article.title_href)}">{title}</a>'
    heading = f"<h1>{title}</h1>\n" if title else ""
    return (
        f'<!DOCTYPE html>\n<html{lang} dir="{html.escape(article.dir)}">\n<head>\n'
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{head_title}</title>\n</head>\n<body>\n<article>\n{heading}"
        f"{article.html}\n</article>\n</body>\n</html>"
    )


# -- eval ------------------------------------------------------------------------------


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of `plainview eval`."""
    parser.add_argument(
        "--dataset", type=Path, default=DEFAULT_DATASET, metavar="DIR",
        help="a WCXB dataset (html/ and ground-truth/) or Readability.js's test pages "
        "(folders with source.html and expected.html), told apart by their files "
        "(default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--split", choices=get_args(evaluation.Split), default="all",
        help="WCXB pages by file id parity (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument("--limit", type=_positive_int, metavar="N", help="only the first N pages")
    parser.add_argument(
        "--peers", action="store_true",
        help="also run trafilatura, readability-lxml and Readability.js (node, source checkout)",
    )  # fmt: skip
    parser.add_argument(
        "--baselines", action="store_true",
        help="also score whole-page text with the <title> and the first <h1> as headline",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, metavar="FILE.json", help="write all scores here")
    parser.add_argument(
        "--site-pages", action="store_true",
        help="score only the WCXB pages whose host has two or more pages in the dataset, "
        "handing each extractor that can use them the host's other pages",
    )  # fmt: skip
    parser.add_argument(
        "--site-memory", action="store_true",
        help="with --site-pages: also score each algorithm with the site memory of the "
        "page's host's other pages, as a row NAME+memory",
    )  # fmt: skip
    add_algorithm_arguments(parser, repeatable=True)
    add_pipeline_argument(parser, repeatable=True)


@dataclass(frozen=True, slots=True)
class DatasetProblem:
    """Why `plainview eval` cannot read the dataset it is given."""

    message: str


@dataclass(frozen=True, slots=True)
class EvalOutcome:
    """A finished evaluation: its printed report, its JSON data, whether any page was unreadable."""

    text: str
    data: dict[str, object]
    unreadable: bool


def run_eval(args: argparse.Namespace) -> int:
    """Score the chosen extractors on the dataset; return 1 on any unreadable input."""
    layout = eval_layout(args)
    if isinstance(layout, DatasetProblem):
        _error(layout.message)
        return 1
    extractors = eval_extractors(args, with_html=layout == "testpages")
    if isinstance(extractors, str):
        _error(extractors)
        return 1
    try:
        with evaluation.running(extractors):
            outcome = _evaluate(layout, args, extractors)
    except PeerFailed as failure:
        _error(f"readability.js: {failure}")
        return 1
    if isinstance(outcome, str):
        _error(outcome)
        return 1
    print(outcome.text)
    problem = evaluation.write_json(outcome.data, args.out) if args.out else None
    if problem:
        _error(problem)
    return 1 if problem or outcome.unreadable else 0


def eval_layout(args: argparse.Namespace) -> Layout | DatasetProblem:
    """Tell the dataset's layout from its files, or what is wrong with it."""
    dataset: Path = args.dataset
    if args.site_memory and not args.site_pages:
        # Without its site's other pages a page has no memory: the row would repeat its own.
        return DatasetProblem("--site-memory needs --site-pages: a page alone has no memory")
    if evaluation.is_dataset(dataset):
        return "wcxb"
    if not testpages.is_dataset(dataset):
        return DatasetProblem(
            f"{dataset}: not a dataset (needs html/ and ground-truth/, "
            f"or page folders with {testpages.SOURCE} and {testpages.EXPECTED})"
        )
    if args.split != "all":
        # The folders are named, not numbered; readability-even is one half already.
        return DatasetProblem(f"--split {args.split} picks WCXB file ids: test pages have none")
    if args.site_pages or args.site_memory:
        return DatasetProblem("--site-pages reads WCXB pages' URLs: test pages have none")
    return "testpages"


def _evaluate(
    layout: Layout, args: argparse.Namespace, extractors: Sequence[evaluation.Extractor]
) -> EvalOutcome | str:
    """Run the extractors over the dataset of the given layout; a string says what is wrong."""
    if layout == "testpages":
        pages = testpages.evaluate(
            args.dataset, extractors, limit=args.limit, progress_stream=sys.stderr
        )
        if isinstance(pages, str):
            return pages
        text, data = testpages.format_report(pages), testpages.report_json(pages)
        return EvalOutcome(text, data, bool(pages.errors))
    report = evaluation.evaluate(
        args.dataset,
        extractors,
        split=args.split,
        limit=args.limit,
        progress_stream=sys.stderr,
        site_pages=args.site_pages,
    )
    if isinstance(report, str):
        return report
    text, data = evaluation.format_report(report), evaluation.report_json(report)
    return EvalOutcome(text, data, bool(report.errors))


def eval_extractors(
    args: argparse.Namespace, *, with_html: bool = False
) -> list[evaluation.Extractor] | str:
    """List the extractors the options ask for; a string says what is missing.

    `with_html` asks the peers for their article's HTML too, for the structure measures
    (only trafilatura needs asking).
    """
    algorithms = dict.fromkeys(args.algorithm or [DEFAULT_ALGORITHM])
    extractors = [
        evaluation.plainview_extractor(variant_name(name, each), params_from_args(name, each))
        for name in algorithms
        for each in per_threshold(name, args)
    ]
    if args.site_memory:
        extractors += [
            evaluation.remembering_extractor(variant_name(name, args), params_from_args(name, args))
            for name in algorithms
        ]
    # One row per name: a pipeline of one algorithm that runs as a row already is that row.
    pipelines = {spec_text(pipeline): pipeline for pipeline in args.pipeline or []}
    taken = {extractor.name for extractor in extractors}
    extractors += [
        evaluation.pipeline_extractor(name, pipeline)
        for name, pipeline in pipelines.items()
        if name not in taken
    ]
    if args.peers:
        peers = evaluation.peer_extractors(with_html=with_html)
        if isinstance(peers, str):
            return peers
        extractors += peers
    if args.baselines:
        extractors += evaluation.baseline_extractors()
    return extractors


def per_threshold(algorithm: str, args: argparse.Namespace) -> list[argparse.Namespace]:
    """Split eval's options into one set per threshold asked, for an algorithm that reads
    one (BlockExtractor); the others get one set."""
    thresholds: list[float | None] = args.threshold or [None]
    if params_for(algorithm).blockextractor is None:
        thresholds = [None]
    return [argparse.Namespace(**{**vars(args), "threshold": value}) for value in thresholds]


# -- helpers ---------------------------------------------------------------------------


def _dumps(value: object, indent: int | None = None) -> str:
    """Serialise to JSON, keeping non-ASCII text readable."""
    return json.dumps(value, ensure_ascii=False, indent=indent)


def _error(message: str) -> None:
    """Print a one-line message on standard error."""
    print(f"{PROG}: {message}", file=sys.stderr)


def _non_negative_int(text: str) -> int:
    """Parse an integer that is 0 or more, for argparse."""
    return _bounded(int, text, minimum=0)


def _positive_int(text: str) -> int:
    """Parse an integer that is 1 or more, for argparse."""
    return _bounded(int, text, minimum=1)


def _non_negative_float(text: str) -> float:
    """Parse a finite number that is 0 or more, for argparse."""
    value = _bounded(float, text, minimum=0.0)
    if math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be finite: {text!r}")
    return value


def _positive_float(text: str) -> float:
    """Parse a number above 0, for argparse."""
    value = _bounded(float, text, minimum=0.0)
    if value == 0:
        raise argparse.ArgumentTypeError(f"must be above 0: {text!r}")
    return value


def _bounded(kind: Callable[[str], _Number], text: str, *, minimum: _Number) -> _Number:
    """Parse a number of a kind and check its lower bound, for argparse."""
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= minimum:  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be {minimum} or more: {text!r}")
    return value


COMMANDS: tuple[Command, ...] = (
    Command("extract", "print the main content of pages", add_extract_arguments, run_extract),
    Command(
        "eval",
        "score extractors on a WCXB or a Readability.js test-pages dataset",
        add_eval_arguments,
        run_eval,
    ),
    Command("proxy", "run the reader-view proxy", proxy_command.add_arguments, proxy_command.run),
)


if __name__ == "__main__":
    sys.exit(main())
