"""docs/deploy.md's examples, run (the marker convention is tests/test_docs.py's).

Kinds of its own:

=================  =======================================================================
``local-cluster``  block: the commands run from the checkout against a local cluster in a
                   folder of its own, on free ports (8080 in the text becomes the port
                   used); every ``stdout-has=TEXT`` is in what they print; afterwards no
                   process the cluster started is left
``nginx``          block: the configuration passes ``nginx -t`` (inside ``http``), and has
                   the same directives as deploy/nginx.conf
``environment``    block: ``VAR=value`` lines; the worker's settings read each value into
                   the setting of that name (kept as ``file=`` for a unit)
``systemd``        block: a unit whose ExecStart is a real ``twinrack`` command with real
                   options, whose EnvironmentFile is the environment block's file, and
                   that stops with SIGTERM after more than the drain's time
=================  =======================================================================
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import fields
from pathlib import Path

import pytest

from tests.test_docs import (
    ROOT,
    Context,
    Marked,
    _commands,
    _options,
    check,
    fenced_blocks,
    run_document,
)
from twinrack.server.app import DRAIN_SECONDS
from twinrack.server.config import Settings

DOC = "docs/deploy.md"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"))
    return found[-1] if found else None


def _free_run(n: int) -> int:
    """A port p with p+1 .. p+n all free on 127.0.0.1."""
    for base in range(21000, 40000, 97):
        try:
            for p in range(base + 1, base + n + 1):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        return base
    raise AssertionError("no free ports")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead and not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@check("local-cluster")
def _local_cluster(m: Marked, ctx: Context) -> None:
    missing = [name for name, there in (("postgresql", _pg_bin() is not None),
                                        ("redis-server", shutil.which("redis-server")),
                                        ("nginx", os.access(NGINX, os.X_OK)),
                                        ("curl", shutil.which("curl"))) if not there]
    if missing:
        pytest.skip(f"the local cluster needs Debian's {', '.join(missing)} (.ci/run "
                    "installs them)")
    folder = Path(tempfile.mkdtemp(prefix="twinrack-cluster-"))
    folder.chmod(0o755)  # PostgreSQL runs as its own user, in a folder of it
    http = _free_port()
    env = {**os.environ, "CLUSTER_DIR": str(folder), "HTTP_PORT": str(http),
           "PG_PORT": str(_free_port()), "REDIS_PORT": str(_free_port()),
           "WORKER_PORT": str(_free_run(3))}
    pids: list[int] = []
    out: list[str] = []
    try:
        for line in m.body.splitlines():
            if not line.strip():
                continue
            command = line.replace("127.0.0.1:8080", f"127.0.0.1:{http}")
            if command.startswith("make cluster-down"):
                pids = [int(p.read_text().split()[0]) for p in
                        [*folder.glob("workers/*.pid"), folder / "redis" / "redis.pid",
                         folder / "nginx" / "nginx.pid"] if p.exists()]
                pg = folder / "pg" / "data" / "postmaster.pid"
                if pg.exists():
                    pids.append(int(pg.read_text().split()[0]))
            done = subprocess.run(shlex.split(command), cwd=ROOT, env=env, text=True,
                                  capture_output=True, timeout=600, check=False)
            assert done.returncode == 0, f"{line!r} exits {done.returncode}: {done.stderr}"
            out.append(done.stdout)
    finally:
        subprocess.run(["deploy/cluster.sh", "down"], cwd=ROOT, env=env, timeout=120,
                       capture_output=True, check=False)
    printed = "".join(out)
    for word in m.words:
        if word.startswith("stdout-has="):
            want = word.removeprefix("stdout-has=").replace("127.0.0.1:8080",
                                                            f"127.0.0.1:{http}")
            assert want in printed, f"{want!r} is not in what the commands print:\n{printed}"
    assert len(pids) == 6, f"not every process was running before the cluster stopped: {pids}"
    deadline = time.monotonic() + 10  # nginx and PostgreSQL may take a moment to exit
    while (left := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"processes left running: {left}"
    shutil.rmtree(folder, ignore_errors=True)


def _directives(text: str) -> list[str]:
    """The words of an nginx configuration, comments and layout left out."""
    return re.sub(r"#[^\n]*", "", text).replace(";", " ; ").replace("{", " { ").split()


@check("nginx")
def _nginx(m: Marked, ctx: Context) -> None:
    where = ctx.tmp / f"nginx-{m.line}"
    (where / "logs").mkdir(parents=True)
    conf = where / "nginx.conf"
    conf.write_text(f"pid {where}/nginx.pid;\nerror_log {where}/error.log;\nevents {{}}\n"
                    f"http {{\n{m.body}}}\n", encoding="utf-8")
    if not os.access(NGINX, os.X_OK):
        pytest.skip("nginx -t needs Debian's nginx (.ci/run installs it)")
    done = subprocess.run([NGINX, "-t", "-c", str(conf), "-p", str(where)], text=True,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    shipped = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    assert _directives(m.body) == _directives(shipped), "deploy/nginx.conf says otherwise"


SETTINGS = {f"TWINRACK_{f.name.upper()}": f for f in fields(Settings)}
#: set by `twinrack serve` from its own options (--host, --port), never from the file
FROM_OPTIONS = {"TWINRACK_HOST", "TWINRACK_PORT"}


@check("environment")
def _environment(m: Marked, ctx: Context) -> None:
    env = dict(line.split("=", 1) for line in m.body.splitlines()
               if line.strip() and not line.startswith("#"))
    assert env, "no variable"
    old = dict(os.environ)
    try:
        os.environ.update(env)
        settings = Settings.from_env()
    finally:
        os.environ.clear()
        os.environ.update(old)
    for key, value in env.items():
        assert key in SETTINGS and key not in FROM_OPTIONS, f"the worker does not read {key}"
        got = getattr(settings, SETTINGS[key].name)
        assert str(got) == value or got == float(value), f"{key}={value} gives {got!r}"
    ctx.files[m.args["file"]] = m.body


@check("systemd")
def _systemd(m: Marked, ctx: Context) -> None:
    unit = configparser.ConfigParser(interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(m.body)
    assert unit.sections() == ["Unit", "Service", "Install"], unit.sections()
    service = unit["Service"]
    assert service["EnvironmentFile"] == m.args["environment-file"] in ctx.files, \
        "EnvironmentFile is not the file the environment block describes"
    program, *words = shlex.split(service["ExecStart"])
    assert program.endswith("/.venv/bin/twinrack"), program
    command = _commands()[(words[0],)]
    given = {w for w in words if w.startswith("--")}
    assert given <= _options(command), f"no option {sorted(given - _options(command))}"
    assert service["KillSignal"] == "SIGTERM"  # SIGTERM drains (docs/deploy.md)
    assert float(service["TimeoutStopSec"]) > DRAIN_SECONDS


def test_every_example_of_the_deployment_guide_runs(tmp_path: Path) -> None:
    problems = run_document(DOC, tmp_path)
    assert not problems, "\n".join(problems)


def test_every_fenced_block_of_the_deployment_guide_is_marked() -> None:
    unmarked = [line for line, marked in fenced_blocks(ROOT / DOC) if not marked]
    assert not unmarked, f"{DOC}: fenced blocks without a doc-test marker at lines {unmarked}"
