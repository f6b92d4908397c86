// Prints the generator coverage table of src/testing/README.md: how often the plans of the
// soundness generator reach each position a leak hid in, and each node type in how many positions.
import { coverageTable, generatorCoverage } from "../dist/testing/coverage.js";

const plans = Number(process.argv[2] ?? 3000);
console.log(coverageTable(generatorCoverage(plans), plans));
