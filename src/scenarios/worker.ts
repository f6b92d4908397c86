/**
 * A worker thread of the scenario pool: receives jobs one at a time, runs each against the
 * bundled suites and posts the record back.
 */
import { parentPort } from "node:worker_threads";
import { runJob, type Job } from "./job.js";
import { suiteNamed } from "./suites/index.js";

parentPort?.on("message", (job: Job) => {
  void runJob(job, suiteNamed(job.suite)).then((record) => parentPort?.postMessage(record));
});
