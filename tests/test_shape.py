"""The shape the code keeps (docs/architecture.md): a function reads on one screen, a
module stays short enough to read top down, and the layers import only downwards."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "twinrack"
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 700

# Each layer may import itself and the layers listed for it, nothing above.
LAYERS: dict[str, set[str]] = {
    "tiles": {"errors"},
    "errors": set(),
    "card": {"tiles", "errors"},
    "engine": {"tiles", "errors", "card"},
    "narration": {"tiles", "errors", "card", "engine"},
    "bots": {"tiles", "errors", "card", "engine", "narration"},
    "desk": {"tiles", "errors", "card", "engine"},
}
CORE = ("tiles", "errors", "card", "engine")
IMPURE = {"time", "random", "os", "socket", "sqlite3", "asyncio", "datetime", "threading"}


def _python_files() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def _script_files() -> list[Path]:
    return sorted(p for p in (SRC / "web" / "static").rglob("*.js") if "vendor" not in p.parts)


def _layer(path: Path) -> str:
    first = path.relative_to(SRC).parts[0]
    return first.removesuffix(".py")


def _imports(tree: ast.AST) -> set[str]:
    """The top-level names a module imports (``twinrack.x`` counts as ``twinrack.x``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_function_is_longer_than_a_screen() -> None:
    long = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({lines})")
    assert long == []


@pytest.mark.parametrize("kind", ["python", "script"])
def test_no_module_is_too_long(kind: str) -> None:
    files = _python_files() if kind == "python" else _script_files()
    assert files, f"no {kind} files found under {SRC}"
    long = [f"{p.relative_to(SRC)} ({n})" for p in files
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES]
    assert long == []


def test_layers_import_only_downwards() -> None:
    wrong = []
    for path in _python_files():
        layer = _layer(path)
        allowed = LAYERS.get(layer)
        if allowed is None:
            continue  # the surfaces (server, tui, cli) may use every layer below them
        for name in _imports(ast.parse(path.read_text())):
            parts = name.split(".")
            if parts[0] == "twinrack" and len(parts) > 1:
                used = parts[1]
                if used != layer and used not in allowed:
                    wrong.append(f"{path.relative_to(SRC)} imports twinrack.{used}")
    assert wrong == []


def test_the_core_does_no_io_and_keeps_no_clock() -> None:
    impure = []
    for path in _python_files():
        if _layer(path) not in CORE:
            continue
        for name in _imports(ast.parse(path.read_text())):
            if name.split(".")[0] in IMPURE:
                impure.append(f"{path.relative_to(SRC)} imports {name}")
    assert impure == []


# What every feature of the server uses; everything else lives in a feature's folder.
SERVER_SHARED = {"__init__", "app", "config", "csrf", "db", "deps", "doc_routes", "guard",
                 "hub", "hub_pages", "jobs", "models", "workers", "writer"}
SERVER_FEATURES = {"table", "lobby", "room", "accounts", "chat", "editor", "desk", "cluster",
                   "migrations"}


def test_the_server_keeps_one_folder_per_feature() -> None:
    server = SRC / "server"
    loose = sorted(p.stem for p in server.glob("*.py"))
    folders = sorted(p.name for p in server.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert [n for n in loose if n not in SERVER_SHARED] == []
    assert [n for n in folders if n not in SERVER_FEATURES] == []
    assert not list(SRC.glob("cli*.py")), "the twinrack command lives in the cli/ package"
