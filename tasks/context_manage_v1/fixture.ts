/** The shop backend workspace: config.py, twenty service modules, and the hidden consistency test. */
import type { TaskFile } from '../../src/tasks/types.js';
import { renderService } from './render.js';
import { SERVICES, STALE } from './services.js';
import type { ServiceSpec, TaxSpec } from './spec.js';

const CONFIGURED_RATE = '0.0725';

const CONFIG = `"""Shop-wide settings.

This module is the single source of truth for these values: import them from here
(\`from config import TAX_RATE\`), never copy them into another module.
"""

CURRENCY = "EUR"

# Sales tax added to every gross amount: invoices, quotes, receipts, refunds, renewals...
TAX_RATE = ${CONFIGURED_RATE}

FREE_SHIPPING_THRESHOLD = 60.0
LOYALTY_POINTS_PER_EURO = 2
REFUND_WINDOW_DAYS = 30
PAGE_SIZE = 25
`;

export const STALE_MODULES: readonly string[] = Object.keys(STALE);

export const servicePath = (module: string): string => `services/${module}.py`;

/** The same module with its tax function reading config.TAX_RATE: what a correct fix looks like. */
export function fixedService(module: string): string {
  const spec = SERVICES.find((s) => s.module === module);
  if (spec?.tax === undefined) throw new Error(`${module} has no tax function`);
  return renderService({ ...spec, tax: { ...spec.tax, style: 'config' } });
}

export const WORKSPACE_FILES: TaskFile[] = [
  { path: 'config.py', content: CONFIG },
  { path: 'services/__init__.py', content: '"""Service modules of the shop backend."""\n' },
  ...SERVICES.map((s) => ({ path: servicePath(s.module), content: renderService(s) })),
];

const taxUsers = SERVICES.filter((s): s is ServiceSpec & { tax: TaxSpec } => s.tax !== undefined);

/** Every tax function must give the configured rate, and follow config.TAX_RATE when it changes. */
export const HIDDEN_TEST = `import importlib
import sys

import pytest

sys.path.insert(0, "/workspace")

import config  # noqa: E402

CONFIGURED_RATE = ${CONFIGURED_RATE}
MODULES = [${SERVICES.map((s) => `"services.${s.module}"`).join(', ')}]
TAX_FUNCTIONS = [
${taxUsers.map((s) => `    ("services.${s.module}", "${s.tax.fn}"),`).join('\n')}
]


def test_config_untouched():
    assert config.TAX_RATE == CONFIGURED_RATE


@pytest.mark.parametrize("module_name", MODULES)
def test_module_imports(module_name):
    importlib.import_module(module_name)


@pytest.mark.parametrize("module_name, function_name", TAX_FUNCTIONS)
def test_uses_configured_rate(module_name, function_name):
    module = importlib.import_module(module_name)
    assert getattr(module, function_name)(100) == pytest.approx(100 * (1 + CONFIGURED_RATE), abs=0.005)


@pytest.mark.parametrize("module_name, function_name", TAX_FUNCTIONS)
def test_follows_config(module_name, function_name, monkeypatch):
    module = importlib.import_module(module_name)
    monkeypatch.setattr(config, "TAX_RATE", 0.19)
    try:
        reloaded = importlib.reload(module)
        assert getattr(reloaded, function_name)(100) == pytest.approx(119.0, abs=0.005)
    finally:
        monkeypatch.undo()
        importlib.reload(module)
`;
