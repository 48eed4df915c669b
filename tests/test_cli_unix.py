"""The command line behaves as Unix users expect (issue 14): ``-`` for stdin and stdout,
quiet on a closed pipe, missing extras named before any work, ``show`` reads exports.

The installed command runs in a subprocess; the core install (no extras) is imitated by
hiding the optional modules from the import system.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bgkit
from bgkit.formats.positions import read_positions

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
EXPORT = next((ROOT / "data" / "real" / "xg_txt").glob("*.txt"))

# run bgkit with the optional modules hidden, as on `pip install bgkit` without extras
_CORE = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"gnubg", "pandas", "matplotlib", "pyarrow", "distributed"}:
            raise ModuleNotFoundError(f"No module named {name!r}")
sys.meta_path.insert(0, Hide())
import importlib.util
real = importlib.util.find_spec
def find_spec(name, package=None):
    if name.split(".")[0] in {"gnubg", "pandas", "matplotlib", "pyarrow", "distributed"}:
        return None
    return real(name, package)
importlib.util.find_spec = find_spec
from bgkit.cli import main
main()
"""


def run(*args: str, stdin: bytes = b"", core: bool = False) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-c", _CORE] if core else [sys.executable, "-m", "bgkit"]
    return subprocess.run(
        [*command, *args], input=stdin, capture_output=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("args", "command", "extra"),
    [
        (["analyze", str(SAMPLE)], "bgkit analyze", "analysis"),
        (["hint", "XGID=-b----E-C---eE---c-e----B-:0:0:1:42:0:0:0:0:10"], "bgkit hint", "analysis"),
        (["verify", "-o", "out.csv", str(SAMPLE)], "bgkit verify --output", "batch"),
        (["verify", "--scheduler", "tcp://h:1", str(SAMPLE)], "bgkit verify --scheduler", "batch"),
    ],
)  # fmt: skip
def test_a_missing_extra_is_one_line_before_any_work(
    tmp_path: Path, args: list[str], command: str, extra: str
) -> None:
    result = run(*[a.replace("out.csv", str(tmp_path / "out.csv")) for a in args], core=True)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        f"bgkit: `{command}` needs the {extra} extra: pip install 'bgkit[{extra}]'\n"
    )
    assert not (tmp_path / "out.csv").exists()


def test_the_core_install_reports_xgs_own_analysis() -> None:
    xg = ROOT / "data" / "real" / "xg" / "kevung__gbf__test.xg"
    result = run("analyze", str(xg), "--use-file-analysis", core=True)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "eXtreme Gammon: the record's own analysis" in out and "PR" in out


def test_the_core_install_verifies_and_converts(tmp_path: Path) -> None:
    assert run("verify", "-q", str(SAMPLE), core=True).returncode == 0
    out = run("convert", str(SAMPLE), str(tmp_path / "x.sgf"), core=True)
    assert out.returncode == 0, out.stderr


def test_dash_is_stdin_and_stdout() -> None:
    text = SAMPLE.read_bytes()
    verified = run("verify", "-q", "-", stdin=text)
    assert verified.returncode == 0, verified.stderr
    assert verified.stderr.decode().startswith("1 file(s), 5 game(s)")
    sgf = run("convert", "-", "-", "--to", "sgf", stdin=text)
    assert sgf.returncode == 0, sgf.stderr
    assert bgkit.read_match(text=sgf.stdout, format="sgf").games == bgkit.read_match(SAMPLE).games
    back = run("convert", "-", "-", "--from", "sgf", "--to", "mat", stdin=sgf.stdout)
    assert back.returncode == 0 and back.stdout.startswith(b"; [")
    no_to = run("convert", str(SAMPLE), "-")
    assert no_to.returncode == 2
    assert no_to.stderr.decode() == "bgkit: writing to stdout needs --to (json, mat, ogxm, sgf)\n"


def test_a_closed_pipe_is_quiet() -> None:
    folder = ROOT / "data" / "fixtures"
    shell = f"{sys.executable} -m bgkit verify --json {folder} {folder} | head -1"
    result = subprocess.run(
        ["bash", "-c", f"{shell}; echo ${{PIPESTATUS[0]}} >&2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert len(result.stdout.splitlines()) == 1
    assert "Broken pipe" not in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == "141"


def test_show_reads_a_position_export() -> None:
    result = run("show", str(EXPORT))
    assert result.returncode == 0, result.stderr
    (position,) = read_positions(EXPORT)
    assert position.xgid()[5:].encode() in result.stdout  # the board shows its XGID


def test_help_is_plain_text_with_every_default() -> None:
    import click

    from bgkit.cli import main

    ctx = click.Context(main)
    for name, command in main.commands.items():
        text = command.get_help(click.Context(command, info_name=name, parent=ctx))
        assert "``" not in text and ":func:" not in text and ":class:" not in text, name
        short = command.get_short_help_str(limit=80)
        assert not short.endswith("..."), (name, short)
        for param in command.params:
            if not isinstance(param, click.Option) or param.is_flag or param.name == "help":
                continue
            if param.default is None or type(param.default).__name__ == "Sentinel":
                continue  # an option that does nothing unless given
            said = param.show_default or "[default:" in (param.help or "")
            assert said, (name, param.name)
