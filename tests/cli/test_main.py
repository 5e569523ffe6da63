"""The `plainview extract` command: sources, options, formats, errors and exit codes."""

from __future__ import annotations

import argparse
import gzip
import io
import json
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from local_http import Reply, serve

from addon.cli import main as cli
from addon.core import ALGORITHMS, Article, Block, Diagnostics, ExtractParams, Skip
from addon.core.params import DEFAULT_ALGORITHM
from addon.proxy.adapter import DEFAULT_TIMEOUT

PAGE = (
    b"<!DOCTYPE html><html lang='en'><head><title>Tiny page</title></head><body>"
    b"<h1>A tiny page</h1><p>This page has one paragraph of plain text, long enough to keep."
    b"</p></body></html>"
)
JSONL_KEYS = {"source", "title", "text", "html", "lang", "dir", "readerable", "skip", "ms"}
ARTICLE = Article(
    title="Cats & <Dogs>",
    blocks=(
        Block("p", "<p>First paragraph.</p>", "First paragraph."),
        Block("p", "<p>Second one.</p>", "Second one."),
    ),
    text="First paragraph.\n\nSecond one.",
    lang="en",
    dir="ltr",
    readerable=True,
    byline="A. Writer",
    site_name="Example",
    page_title="Cats & <Dogs> | Example",
    word_count=4,
    diagnostics=Diagnostics(
        t1=(5, 6),
        t2=(3, 3),
        diff=(2, 3),
        regions=(),
        selected=(0, 1),
        headline_line=None,
        line_tags=("p", "p"),
        params={"gap": "20"},
    ),
)


@dataclass
class FakeExtract:
    """Stands in for `extract`: records each call and answers with a fixed result."""

    result: Article | Skip = ARTICLE
    calls: list[dict[str, object]] = field(default_factory=list)

    def __call__(
        self,
        body: bytes | str,
        *,
        url: str | None = None,
        content_type: str | None = None,
        params: ExtractParams | None = None,
    ) -> Article | Skip:
        self.calls.append(
            {"body": body, "url": url, "content_type": content_type, "params": params}
        )
        return self.result


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeExtract:
    stand_in = FakeExtract()
    monkeypatch.setattr(cli, "extract", stand_in)
    return stand_in


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_bytes(PAGE)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(["extract", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_text_format_prints_headline_blank_line_text(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, str(page_file)) == (
        0,
        "Cats & <Dogs>\n\nFirst paragraph.\n\nSecond one.\n",
        "",
    )
    assert fake.calls[0]["body"] == PAGE
    assert fake.calls[0]["url"] is None
    assert fake.calls[0]["content_type"] is None


def test_text_format_names_each_of_several_sources(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "--format", "text", str(page_file), str(page_file))
    assert status == 0
    assert out.count(f"==> {page_file} <==\nCats & <Dogs>\n\n") == 2


def test_html_format_is_a_standalone_escaped_document(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "--format", "html", str(page_file))
    assert status == 0
    assert out.startswith('<!DOCTYPE html>\n<html lang="en" dir="ltr">')
    assert "<title>Cats &amp; &lt;Dogs&gt;</title>" in out
    assert "<h1>Cats &amp; &lt;Dogs&gt;</h1>\n<p>First paragraph.</p>\n<p>Second one.</p>" in out
    assert out.rstrip().endswith("</html>")


def test_format_html_without_headline_or_language() -> None:
    bare = replace(ARTICLE, title="", lang=None, dir="rtl", page_title="")
    document = cli.format_html(bare)
    assert '<html dir="rtl">' in document
    assert "<h1>" not in document
    assert "<title>Untitled</title>" in document
    assert cli.format_text(bare) == bare.text


def test_format_html_keeps_the_headline_link() -> None:
    linked = replace(ARTICLE, title_href='https://x.example/post?a=1&b="2"')
    link = '<a href="https://x.example/post?a=1&amp;b=&quot;2&quot;">Cats &amp; &lt;Dogs&gt;</a>'
    assert f"<h1>{link}</h1>" in cli.format_html(linked)


def test_several_sources_default_to_jsonl(
    fake: FakeExtract, page_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.html"
    other.write_bytes(b"<p>other</p>")
    status, out, err = run(capsys, str(page_file), str(other), "--url", "https://example.org/a")
    records = [json.loads(line) for line in out.splitlines()]
    assert (status, err) == (0, "")
    assert [record["source"] for record in records] == [str(page_file), str(other)]
    assert all(record.keys() >= JSONL_KEYS for record in records)
    assert "diagnostics" not in records[0]
    assert records[0]["title"] == "Cats & <Dogs>"
    assert records[0]["html"] == ARTICLE.html
    assert records[0]["skip"] is None
    assert records[0]["url"] == "https://example.org/a"
    assert [call["url"] for call in fake.calls] == ["https://example.org/a"] * 2


def test_jsonl_of_a_skipped_page(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.result = Skip("not html", title="A stated headline")
    status, out, _ = run(capsys, "--format", "jsonl", "--diagnostics", str(page_file))
    record = json.loads(out)
    assert status == 0
    assert record | {"ms": 0} == {
        "source": str(page_file), "url": None, "title": "A stated headline", "text": "",
        "html": "",
        "lang": None, "dir": None, "readerable": False, "skip": "not html", "ms": 0,
        "diagnostics": None,
    }  # fmt: skip


def test_text_of_a_skipped_page_says_why_on_stderr(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.result = Skip("no content")
    assert run(capsys, str(page_file)) == (
        0,
        "",
        f"plainview: {page_file}: no article (no content)\n",
    )


def test_json_has_the_full_article_and_optional_diagnostics(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "--format", "json", str(page_file))
    record = json.loads(out)
    assert record["byline"] == "A. Writer"
    assert record["site_name"] == "Example"
    assert record["published"] is None
    assert record["blocks"][1] == {"kind": "p", "html": "<p>Second one.</p>", "text": "Second one."}
    assert "diagnostics" not in record
    _, out, _ = run(capsys, "--format", "json", "--diagnostics", str(page_file))
    diagnostics = json.loads(out)["diagnostics"]
    assert diagnostics["t1"] == [5, 6]
    assert diagnostics["params"] == {"gap": "20"}


def test_json_of_several_sources_is_an_array(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.result = Skip("empty")
    _, out, _ = run(capsys, "--format", "json", str(page_file), str(page_file))
    records = json.loads(out)
    assert [record["skip"] for record in records] == ["empty", "empty"]
    assert records[0]["blocks"] == []


def test_gz_file_is_decompressed(
    fake: FakeExtract, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packed = tmp_path / "page.html.gz"
    packed.write_bytes(gzip.compress(PAGE))
    assert run(capsys, str(packed))[0] == 0
    assert fake.calls[0]["body"] == PAGE


def test_stdin_source(
    fake: FakeExtract, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE)))
    status, out, _ = run(capsys, "--format", "jsonl", "--url", "https://example.org/s", "-")
    assert status == 0
    assert json.loads(out)["source"] == "-"
    assert fake.calls == [
        {
            "body": PAGE,
            "url": "https://example.org/s",
            "content_type": None,
            "params": ALGORITHMS[DEFAULT_ALGORITHM],
        }
    ]


def test_unreadable_sources_fail_at_the_end_after_the_others(
    fake: FakeExtract, page_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.html"
    broken = tmp_path / "broken.html.gz"
    broken.write_bytes(b"plain, not gzip")
    status, out, err = run(capsys, str(missing), str(page_file), str(broken))
    assert status == 1
    assert [json.loads(line)["source"] for line in out.splitlines()] == [str(page_file)]
    lines = err.splitlines()
    assert lines[0] == f"plainview: {missing}: No such file or directory"
    assert lines[1].startswith(f"plainview: {broken}: ")
    assert len(lines) == 2


def test_options_override_the_algorithm_params(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = ["--algorithm", "danag", "--filter", "2", "--gap", "5", "--smoothing", "4.6"]
    options += ["--title-method", "osm", "--max-bytes", "1000"]
    assert run(capsys, *options, str(page_file))[0] == 0
    base = ALGORITHMS["danag"]
    assert fake.calls[0]["params"] == replace(
        base,
        danag=replace(base.danag, filter=2, gap=5, smoothing="4.6"),
        title=replace(base.title, method="osm"),
        max_bytes=1000,
    )


def test_reading_stops_one_byte_past_max_bytes(
    fake: FakeExtract, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.html"
    big.write_bytes(b"<p>" + b"x" * 5000 + b"</p>")
    assert run(capsys, "--max-bytes", "100", str(big))[0] == 0
    assert fake.calls[0]["body"] == (b"<p>" + b"x" * 5000)[:101]


@pytest.mark.parametrize(
    "options",
    [
        ["--filter", "7"],
        ["--filter", "x"],
        ["--gap", "-1"],
        ["--max-bytes", "0"],
        ["--smoothing", "5"],
        ["--title-method", "bm25"],
        ["--algorithm", "nope"],
        ["--format", "pdf"],
        ["--timeout", "0"],
        ["--time-budget", "-1"],
        ["--time-budget", "inf"],
        ["--time-budget", "soon"],
        [],
    ],
)
def test_invalid_options_exit_2(
    options: list[str], page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sources = [str(page_file)] if options else []
    with pytest.raises(SystemExit) as exited:
        cli.main(["extract", *options, *sources])
    assert exited.value.code == 2
    assert "plainview extract: error:" in capsys.readouterr().err


def test_no_command_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main([])
    assert exited.value.code == 2


def endless_extract(body: bytes | str, **options: object) -> Article:
    """Stand in for `extract` with work that never ends on its own."""
    threading.Event().wait()  # never set: only the time budget can stop it
    return ARTICLE


def unbounded_extract(body: bytes | str, **options: object) -> Article:
    """Stand in for `extract`, checking that no timer runs while it works."""
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    return ARTICLE


def test_a_page_over_the_time_budget_is_skipped_and_the_next_one_runs(
    page_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "extract", endless_extract)
    status, out, err = run(capsys, "--time-budget", "0.2", str(page_file), str(page_file))
    records = [json.loads(line) for line in out.splitlines()]
    assert (status, err) == (0, "")
    assert [record["skip"] for record in records] == ["over the time budget (0.2 s)"] * 2
    # Each page was stopped at its budget, not before.
    assert all(record["ms"] >= 200 for record in records)


def test_a_page_within_the_budget_is_left_alone_and_the_timer_is_cleared(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    handler = signal.getsignal(signal.SIGALRM)
    status, out, _ = run(capsys, "--format", "jsonl", str(page_file))
    assert status == 0 and json.loads(out)["skip"] is None
    assert signal.getsignal(signal.SIGALRM) is handler
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_time_budget_of_zero_means_no_limit(
    page_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "extract", unbounded_extract)
    status, out, _ = run(capsys, "--format", "jsonl", "--time-budget", "0", str(page_file))
    assert status == 0 and json.loads(out)["skip"] is None


def test_the_default_time_budget_is_the_proxy_timeout() -> None:
    args = cli.build_parser().parse_args(["extract", "page.html"])
    assert args.time_budget == cli.DEFAULT_TIME_BUDGET == float(DEFAULT_TIMEOUT)


def test_url_sources(fake: FakeExtract, capsys: pytest.CaptureFixture[str]) -> None:
    routes = {
        "/moved": Reply(302, b"", {"Location": "/page"}),
        "/page": Reply(200, PAGE, {"Content-Type": "text/html; charset=iso-8859-1"}),
    }
    with serve(routes) as server:
        status, out, err = run(capsys, server.base + "/moved", server.base + "/missing")
    record = json.loads(out)
    assert status == 1
    assert record["source"] == server.base + "/moved"
    assert record["url"] == server.base + "/page"
    assert fake.calls[0]["body"] == PAGE
    assert fake.calls[0]["url"] == server.base + "/page"
    assert fake.calls[0]["content_type"] == "text/html; charset=iso-8859-1"
    assert err == f"plainview: {server.base}/missing: HTTP 404 Not Found\n"
    assert "text/html" in server.requests[0]["Accept"]


def test_url_source_with_the_real_extract(capsys: pytest.CaptureFixture[str]) -> None:
    with serve({"/": Reply(200, PAGE, {"Content-Type": "text/html"})}) as server:
        status, out, err = run(capsys, "--format", "jsonl", server.base + "/")
    record = json.loads(out)
    assert (status, err) == (0, "")
    assert record.keys() >= JSONL_KEYS
    assert record["skip"] is None or isinstance(record["skip"], str)


def test_too_large_source_is_a_skip_not_an_error(
    page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--format", "jsonl", "--max-bytes", "20", str(page_file))
    assert (status, err) == (0, "")
    assert json.loads(out)["skip"].startswith("too large")


def test_installed_command(page_file: Path, tmp_path: Path) -> None:
    command = Path(sys.executable).with_name("plainview")
    packed = tmp_path / "page.html.gz"
    packed.write_bytes(gzip.compress(PAGE))
    done = subprocess.run(
        [command, "extract", "--format", "jsonl", str(page_file), "-", str(packed)],
        input=PAGE, capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert (done.returncode, done.stderr) == (0, b"")
    assert [record["source"] for record in records] == [str(page_file), "-", str(packed)]
    assert all(record.keys() >= JSONL_KEYS for record in records)
    # Identical bytes give identical results, whichever way they were read.
    assert len({(record["title"], record["text"], record["skip"]) for record in records}) == 1


def test_a_reader_that_stops_reading_ends_the_command_quietly(tmp_path: Path) -> None:
    # `plainview extract page.html | head -1`: head closes the pipe after one line.
    command = Path(sys.executable).with_name("plainview")
    page = tmp_path / "long.html"
    paragraphs = "".join(f"<p>Paragraph {n} of a long article.</p>" for n in range(5000))
    page.write_text(f"<html><body><article><h1>Long</h1>{paragraphs}</article></body></html>")
    reader = subprocess.Popen(
        [command, "extract", str(page)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.readline()
    reader.stdout.close()  # the reader stops
    err = reader.stderr.read()
    reader.stderr.close()
    status = reader.wait(timeout=120)
    assert (status, err) == (141, b"")  # 128 + SIGPIPE, as a shell reports a command it stopped


def test_commands_are_registered_from_records(capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[argparse.Namespace] = []

    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--port", type=int, default=8080)

    def listen(args: argparse.Namespace) -> int:
        seen.append(args)
        return 3

    commands = (*cli.COMMANDS, cli.Command("listen", "listen somewhere", add, listen))
    args = cli.build_parser(commands).parse_args(["listen", "--port", "9"])
    assert args.run(args) == 3
    assert seen[0].port == 9
    assert {"extract", "eval"} <= {command.name for command in cli.COMMANDS}


def test_variant_name_lists_overrides() -> None:
    args = cli.build_parser().parse_args(["eval", "--gap", "40", "--title-method", "tfidf"])
    assert cli.variant_name("danag", args) == "danag[gap=40,title-method=tfidf]"
    plain = cli.build_parser().parse_args(["eval"])
    assert cli.variant_name("danag", plain) == "danag"


# -- pipelines ---------------------------------------------------------------------------


def test_extract_runs_a_pipeline(page_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--pipeline", "serial(addanag-plus,danag)", str(page_file))
    assert (status, err) == (0, "")
    assert out == "A tiny page\n\nThis page has one paragraph of plain text, long enough to keep.\n"


def test_a_pipeline_of_one_algorithm_prints_what_the_algorithm_prints(
    page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = json.loads(run(capsys, "--format", "json", "--algorithm", "danag", str(page_file))[1])
    piped = json.loads(run(capsys, "--format", "json", "--pipeline", "danag", str(page_file))[1])
    del alone["ms"], piped["ms"]  # the time taken differs from run to run
    assert piped == alone


def test_a_pipeline_goes_to_the_pipeline_runner(
    fake: FakeExtract,
    page_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[object] = []

    def fake_pipeline(body: bytes | str, pipeline: object, **options: object) -> Article:
        seen.append(pipeline)
        return ARTICLE

    monkeypatch.setattr(cli, "extract_pipeline", fake_pipeline)
    status, out, _ = run(capsys, "--pipeline", "vote2(danag, dana, r2l)", str(page_file))
    assert (status, fake.calls) == (0, [])
    assert seen == [cli.pipeline_spec("vote2(danag,dana,r2l)")]
    assert out.startswith("Cats & <Dogs>\n\n")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nope", "argument --pipeline: unknown algorithm 'nope' (known: addanag-paper, "),
        ("vote3(danag,dana)", "argument --pipeline: vote3 needs at least 3 filters, has 2"),
        ("serial(danag", "argument --pipeline: unbalanced parentheses: '(' at 6 is never closed"),
        ("", "argument --pipeline: empty pipeline spec: ''"),
    ],
)
def test_a_bad_pipeline_spec_exits_2_with_what_is_wrong(
    spec: str, message: str, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for command, sources in (("extract", [str(page_file)]), ("eval", [])):
        with pytest.raises(SystemExit) as exited:
            cli.main([command, "--pipeline", spec, *sources])
        assert exited.value.code == 2
        assert f"plainview {command}: error: {message}" in capsys.readouterr().err


def test_a_pipeline_takes_no_parameter_overrides(
    page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--pipeline", "danag", "--gap", "5", str(page_file))
    assert (status, out) == (2, "")
    assert err == (
        "plainview: --pipeline takes no parameter overrides: its filters run with their own\n"
    )


def test_eval_runs_each_pipeline_as_a_row_named_by_its_spec() -> None:
    argv = ["eval", "--algorithm", "danag", "--gap", "5", "--pipeline", "vote2( danag,dana,r2l)"]
    argv += ["--pipeline", "serial(addanag-plus,r2l)", "--pipeline", "vote2(danag,dana,r2l)"]
    extractors = cli.eval_extractors(cli.build_parser().parse_args(argv))
    assert isinstance(extractors, list)
    names = [extractor.name for extractor in extractors]
    assert names == ["danag[gap=5]", "vote2(danag,dana,r2l)", "serial(addanag-plus,r2l)"]
    # Without --algorithm, the default runs beside the pipelines.
    extractors = cli.eval_extractors(cli.build_parser().parse_args(["eval", *argv[5:]]))
    assert isinstance(extractors, list)
    assert [extractor.name for extractor in extractors] == [
        DEFAULT_ALGORITHM, "vote2(danag,dana,r2l)", "serial(addanag-plus,r2l)"
    ]


def test_the_threshold_overrides_blockextractors_and_names_its_variant(
    fake: FakeExtract, page_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = ["--algorithm", "blockextractor", "--threshold", "2.5"]
    assert run(capsys, *options, str(page_file))[0] == 0
    base = ALGORITHMS["blockextractor"]
    assert base.blockextractor is not None
    assert fake.calls[0]["params"] == replace(
        base, blockextractor=replace(base.blockextractor, threshold=2.5)
    )
    # The other algorithms read no threshold: it neither changes nor names them.
    assert run(capsys, "--threshold", "2.5", str(page_file))[0] == 0
    assert fake.calls[1]["params"] == ALGORITHMS[DEFAULT_ALGORITHM]
    args = cli.build_parser().parse_args(["eval", "--threshold", "1.3"])
    (each,) = cli.per_threshold("blockextractor", args)
    assert cli.variant_name("blockextractor", each) == "blockextractor[threshold=1.3]"
    assert cli.variant_name("addanag-plus", each) == "addanag-plus"


def test_eval_runs_blockextractor_once_per_threshold() -> None:
    argv = ["eval", "--algorithm", "blockextractor", "--algorithm", "danag"]
    args = cli.build_parser().parse_args([*argv, "--threshold", "1.3", "--threshold", "2"])
    extractors = cli.eval_extractors(args)
    assert not isinstance(extractors, str)
    assert [extractor.name for extractor in extractors] == [
        "blockextractor[threshold=1.3]",
        "blockextractor[threshold=2.0]",
        "danag",
    ]


def test_the_threshold_is_a_number_of_zero_or_more(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["extract", "--threshold", "-1", "page.html"])
    assert "must be 0.0 or more" in capsys.readouterr().err
