// Prints the generator coverage tables of src/testing/README.md: how often the plans of the
// soundness generator reach each position a leak hid in, and each node type in how many
// positions; then how often the plans of the error-place property build each head kind.
import { PLACE_POSITIONS, coverageTable, generatorCoverage, placeCoverage, positionsTable } from "../dist/testing/coverage.js";

const plans = Number(process.argv[2] ?? 3000);
console.log(coverageTable(generatorCoverage(plans), plans));
const placePlans = Math.max(1, Math.round(plans / 10));
console.log(`\n${positionsTable(placeCoverage(placePlans), placePlans, PLACE_POSITIONS, "head an error's place hid behind")}`);
