"""scripts/eval_table.py: page-weighted merge of split results into Markdown."""

import importlib.util
import json
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "eval_table.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(pages: int, f1: float) -> dict[str, object]:
    types = {kind: {"pages": 0, "f1": None} for kind in _load().TYPES}
    types["article"] = {"pages": pages, "f1": f1}
    scores = {
        "pages": pages, "f1": f1, "precision": f1, "recall": f1, "by_type": types,
        "with_rate": 1.0, "without_rate": 0.0, "lcs_f1": f1, "headline_match": 0.5,
        "headline_pages": pages, "mb_per_s": 10.0,
    }  # fmt: skip
    return {"extractors": {"x": scores}}


def test_overall_is_the_page_weighted_mean_of_the_splits(tmp_path: Path) -> None:
    even, odd = tmp_path / "even.json", tmp_path / "odd.json"
    even.write_text(json.dumps(_run(3, 0.5)))
    odd.write_text(json.dumps(_run(1, 0.9)))
    module = _load()
    runs = {"even": json.loads(even.read_text()), "odd": json.loads(odd.read_text())}
    text = module.table(runs)
    # (3 * 0.5 + 1 * 0.9) / 4 = 0.6
    assert "| x | 0.600 | 0.600 | 0.600 | 0.600 | - |" in text
    assert "| x | 0.500 | 0.500 | 0.900 | 0.900 |" in text


def test_bad_arguments_print_usage_and_exit_2(capsys: object) -> None:
    assert _load().main(["no-equals-sign"]) == 2
