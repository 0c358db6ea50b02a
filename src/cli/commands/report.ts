// `grapevine report` lives in ../run-report.ts, which `run --report` shares.
export { defaultReportPath, type ReportCommandOptions, reportCommand } from '../run-report.ts';
