"""No product module imports the simulator: it plugs in at the ends, through the command line's wiring
(``companion/cli.py``), the way a user plugs in a Pico or a camera."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "companion"
WIRING = {PACKAGE / "cli.py"}  # hands the commands the simulator's ends and registers `companion demo`


def simulator_imports(source: str, where: str) -> list[str]:
    """Each ``companion.sim`` import in a module's source, as written (with its line), wherever it is in it."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        if any(name == "companion.sim" or name.startswith("companion.sim.") for name in names):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def product_modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if PACKAGE / "sim" not in p.parents and p not in WIRING]


def test_no_product_module_imports_the_simulator():
    offenders = [line for path in product_modules()
                 for line in simulator_imports(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))]
    assert offenders == []


@pytest.mark.parametrize("source", [
    "import companion.sim.pico\n",
    "import companion.sim\n",
    "from companion.sim import demo\n",
    "from companion import sim\n",
    "def later():\n    from companion.sim.scene_camera import SimCamera\n",
])
def test_every_way_of_importing_it_is_caught(source):
    assert len(simulator_imports(source, "probe.py")) == 1


def test_the_wiring_is_the_one_exception():
    assert simulator_imports((PACKAGE / "cli.py").read_text(encoding="utf-8"), "cli.py")
    assert PACKAGE / "cli.py" not in product_modules() and PACKAGE / "runtime.py" in product_modules()
