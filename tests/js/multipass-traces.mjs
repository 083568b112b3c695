// Prints the hand-built schema-2 traces of multipass.mjs as one JSON object
// {name: trace} for the browser tests (tests/browser/test_passes.py serves them in
// place of /api/trace), so no large JSON file is kept in the repository:
//   node tests/js/multipass-traces.mjs > traces.json
import { forgotZeroGrad, mlpTraining, optimizerSteps } from "./multipass.mjs";

const traces = {
  "forgot-zero-grad": forgotZeroGrad(),
  "optimizer-steps": optimizerSteps(),
  "mlp-training": mlpTraining(3),
};
process.stdout.write(`${JSON.stringify(traces)}\n`);
