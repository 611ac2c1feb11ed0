#!/usr/bin/env bash
# Re-records the regression cassettes committed under test/fixtures/cassettes: made-up claims of the
# claims-triage world (never the incident claim CLM-91077), in the synthetic tier so that they never expire
# and are safe for CI, on the day before and after the OCR upgrade.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build --silent
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
claims=CLM-91002,CLM-91013,CLM-91024,CLM-91035,CLM-91046,CLM-91058,CLM-91069,CLM-91080,CLM-91091,CLM-91103
rm -rf test/fixtures/cassettes
for at in 2026-03-04 2026-03-09; do
  node bin/forkpoint.js record-batch scenarios/claims-triage --claims "$claims" --at "$at" --build baseline \
    --seed 100 --tier synthetic --capture all --export "test/fixtures/cassettes/$at" --db "$work/fixtures.db" > /dev/null
done
ls -R test/fixtures/cassettes
