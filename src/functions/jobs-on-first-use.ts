// The job factories of every function but PCD.VALUE and PCD.VALUES, each loaded on its
// function's first use in a chunk of its own (lazy-job.ts). VALUE and VALUES run as a
// workbook opens, so their code ships with the functions runtime at start; the others are
// rarely in a workbook and their code (tables, the card, ratios, the location-factor
// check's caller) would only make every start of Excel slower.
import { lazyJob } from "./lazy-job";

export const infoJob = lazyJob(
  "PCD.INFO",
  () => import(/* webpackChunkName: "pcd-info" */ "./info"),
  (module) => module.infoJob,
);

export const limitsJob = lazyJob(
  "PCD.LIMITS",
  () => import(/* webpackChunkName: "pcd-limits" */ "./limits"),
  (module) => module.limitsJob,
);

export const searchJob = lazyJob(
  "PCD.SEARCH",
  () => import(/* webpackChunkName: "pcd-search" */ "./search"),
  (module) => module.searchJob,
);

export const escalateJob = lazyJob(
  "PCD.ESCALATE",
  () => import(/* webpackChunkName: "pcd-escalate" */ "./escalate"),
  (module) => module.escalateJob,
);

export const changeJob = lazyJob(
  "PCD.CHANGE",
  () => import(/* webpackChunkName: "pcd-change" */ "./change"),
  (module) => module.changeJob,
);

export const averageJob = lazyJob(
  "PCD.AVERAGE",
  () => import(/* webpackChunkName: "pcd-average" */ "./average"),
  (module) => module.averageJob,
);

export const relocateJob = lazyJob(
  "PCD.RELOCATE",
  () => import(/* webpackChunkName: "pcd-relocate" */ "./relocate"),
  (module) => module.relocateJob,
);

export const seriesCardJob = lazyJob(
  "PCD.SERIES",
  () => import(/* webpackChunkName: "pcd-series" */ "./series-card"),
  (module) => module.seriesCardJob,
);
